using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Receivers;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// Webhooks that must not be delivered, each dead-lettered with its reason while the consumer goes on: an endpoint that
/// answers 410 (and is disabled for the next ones), an unknown endpoint, a host on a private address; and a rotation, which
/// signs with both secrets.
/// </summary>
[Collection("services")]
public sealed class WebhookRefusalTests
{
    private const string Endpoint = "partner-b";
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Gone410_DisablesTheEndpoint_DeadLettersThisAndTheNextWithReasons(string mode)
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Always(ScriptedAnswer.With(System.Net.HttpStatusCode.Gone));
        long first = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(first), r => r.Count > 0, Patience, "first dead letter");
            Assert.Contains("answered 410", Assert.Single(reasons), StringComparison.Ordinal);
            var (disabledAt, why) = await scene.EndpointStateAsync(Endpoint);
            Assert.NotNull(disabledAt);
            Assert.Contains("410 Gone", why, StringComparison.Ordinal);

            long next = (await scene.InsertAsync(Endpoint, 1))[0];
            var nextReasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(next), r => r.Count > 0, Patience, "next dead letter");
            Assert.Contains($"webhook endpoint '{Endpoint}' is disabled", Assert.Single(nextReasons), StringComparison.Ordinal);
        }

        Assert.Single(scene.Receiver.Deliveries);
        Assert.Equal(0, await scene.Db.CountLogAsync("sent"));
    }

    [Fact]
    public async Task UnknownEndpoint_DeadLetteredWithReason_OthersDelivered()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        long unknown = (await scene.InsertAsync("nobody-registered-this", 1))[0];
        long known = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(unknown), r => r.Count > 0, Patience, "dead letter");
            Assert.Contains("unknown webhook endpoint 'nobody-registered-this'", Assert.Single(reasons), StringComparison.Ordinal);
            await Eventually.WaitAsync(() => Task.FromResult(scene.Accepted(known).Count), n => n == 1, Patience, "the known one delivered");
        }

        Assert.Equal(0, scene.Receiver.CountFor(WebhookScene.Key(unknown)));
    }

    [Fact]
    public async Task LoopbackHostWithoutAllowPrivate_RefusedAtConnect_DeadLetteredWithReason()
    {
        await using var scene = await WebhookScene.StartAsync();
        // What an admin could not register (scripts/admin refuses it), written straight into the table: the connect-time check holds.
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.Url, allowPrivate: false);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(id), r => r.Count > 0, Patience, "dead letter");
            string reason = Assert.Single(reasons);
            Assert.Contains("resolves to 127.0.0.1, a loopback address", reason, StringComparison.Ordinal);
            Assert.Contains("server-side request forgery", reason, StringComparison.Ordinal);
        }

        Assert.Empty(scene.Receiver.Deliveries);
    }

    [Fact]
    public async Task RotatedSecret_SignsWithBoth_EachSecretAloneVerifies()
    {
        string oldSecret = WebhookRequests.NewSecret(), newSecret = WebhookRequests.NewSecret();
        // The receiver has not switched yet: it knows the old secret only.
        await using var scene = await WebhookScene.StartAsync([oldSecret], oldSecret);
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        await scene.RotateAsync(Endpoint, newSecret);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(scene.Accepted(id).Count), n => n == 1, Patience, "accepted with the old secret");
        }

        var delivery = scene.Accepted(id)[0];
        string signatures = delivery.Headers[StandardWebhookVerifier.SignatureHeader];
        Assert.Equal(2, signatures.Split(' ').Count(s => s.StartsWith("v1,", StringComparison.Ordinal)));
        var switched = new StandardWebhookVerifier([newSecret]).Verify(
            delivery.Id, delivery.Headers[StandardWebhookVerifier.TimestampHeader], signatures, delivery.Body, delivery.ArrivedAt);
        Assert.True(switched.Verified, switched.Reason);
    }

    [Fact]
    public async Task HttpsEndpoint_TrustedPrivateRoot_DeliveredOverTlsAndVerified()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.Url, allowPrivate: true);
        string roots = Path.Combine(Path.GetTempPath(), $"webhook-roots-{Guid.NewGuid():N}.pem");
        await File.WriteAllTextAsync(roots, scene.Receiver.Certificate.Certificate.ExportCertificatePem());
        try
        {
            long id = (await scene.InsertAsync(Endpoint, 1))[0];
            await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Webhooks:TrustedCertificatesFile", roots)))
            await using (await WorkerHost.StartProducerAsync(scene.Broker))
            {
                await Eventually.WaitAsync(() => Task.FromResult(scene.Accepted(id).Count), n => n == 1, Patience, "accepted over https");
            }

            Assert.StartsWith("https://", scene.Receiver.Url.ToString(), StringComparison.Ordinal);
            Assert.Empty(await scene.DeadLetterReasonsAsync(id));
        }
        finally
        {
            File.Delete(roots);
        }
    }

    [Fact]
    public async Task HttpsEndpoint_UntrustedCertificate_RetriedThenDeadLetteredNeverDelivered()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.Url, allowPrivate: true);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(id), r => r.Count > 0, Patience, "dead letter");
            Assert.Contains("before the request was sent", Assert.Single(reasons), StringComparison.Ordinal);
        }

        Assert.Empty(scene.Receiver.Deliveries);
    }
}
