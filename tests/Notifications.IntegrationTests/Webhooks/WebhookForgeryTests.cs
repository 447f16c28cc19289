using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Consumer.Channels.Webhook;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// The server-side request forgery guard through the real producer and consumer, beyond a literal 127.0.0.1: a host
/// name that resolves to a loopback address (the system's resolver) or to another internal address (the test's resolver,
/// which the connect step asks as it asks DNS), and an endpoint whose answer redirects to an internal service (never followed,
/// the internal service never reached). Each webhook is dead-lettered with its reason.
/// </summary>
[Collection("services")]
public sealed class WebhookForgeryTests
{
    private const string Endpoint = "partner-f";
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task HostNameResolvingToLoopback_NoAllowPrivate_RefusedAtConnectNothingSent()
    {
        await using var scene = await WebhookScene.StartAsync();
        // https://localhost:port/...: a name, not an address; the consumer's connect step resolves it and sees 127.0.0.1 or ::1.
        var byName = new UriBuilder(scene.Receiver.Url) { Host = "localhost" }.Uri;
        await scene.AddEndpointAsync(Endpoint, byName, allowPrivate: false);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(id), r => r.Count > 0, Patience, "dead letter");
            string reason = Assert.Single(reasons);
            Assert.Contains("webhook host 'localhost' resolves to", reason, StringComparison.Ordinal);
            Assert.Contains("a loopback address", reason, StringComparison.Ordinal);
        }

        Assert.Empty(scene.Receiver.Deliveries);
    }

    [Theory]
    [InlineData("10.0.0.5", "private (RFC 1918)")]
    [InlineData("64:ff9b::a9fe:a9fe", "link-local (NAT64 form of 169.254.169.254)")]
    [InlineData("100.64.0.1", "carrier-grade NAT (RFC 6598)")]
    public async Task HostNameResolvingToAnInternalAddress_RefusedAtConnect_DeadLetteredWithTheAddress(string address, string range)
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, new Uri("https://hooks.partner.test/in"), allowPrivate: false);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];
        // The consumer's resolver answers the test's name as a DNS server under someone else's control could.
        var resolver = new FixedHostResolver(new Dictionary<string, IPAddress[]> { ["hooks.partner.test"] = [IPAddress.Parse(address)] });

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, b => b.Services.AddSingleton<IWebhookHostResolver>(resolver)))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(id), r => r.Count > 0, Patience, "dead letter");
            Assert.Contains($"webhook host 'hooks.partner.test' resolves to {IPAddress.Parse(address)}, a {range} address", Assert.Single(reasons), StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(HttpStatusCode.MovedPermanently)]
    [InlineData(HttpStatusCode.Found)]
    [InlineData(HttpStatusCode.TemporaryRedirect)]
    [InlineData(HttpStatusCode.PermanentRedirect)]
    public async Task AnswerRedirectsToAnInternalService_NotFollowed_DeadLetteredWithTheStatus(HttpStatusCode redirect)
    {
        await using var scene = await WebhookScene.StartAsync();
        await using var internalService = await CountingServer.StartAsync(HttpStatusCode.OK);
        await using var endpoint = await CountingServer.StartAsync(redirect, new Uri(internalService.BaseAddress, "admin/delete-everything"));
        await scene.AddEndpointAsync(Endpoint, new Uri(endpoint.BaseAddress, "hooks"), allowPrivate: true);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(id), r => r.Count > 0, Patience, "dead letter");
            Assert.Contains($"answered {(int)redirect}", Assert.Single(reasons), StringComparison.Ordinal);
        }

        Assert.Equal(1, endpoint.Requests);
        Assert.Equal(0, internalService.Requests);
    }
}
