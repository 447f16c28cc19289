using Dapper;
using Notifications.Consumer.Channels.Webhook;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Receivers;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// A running consumer's endpoint cache after its refreshes failed for a while: an operator's disable and secret rotation
/// made meanwhile still reach it, even when a handler read an endpoint added since (which must not move the refresh's
/// watermark past changes the refresh has not read).
/// </summary>
[Collection("services")]
public sealed class WebhookEndpointRefreshTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task RefreshFailedWhileAHandlerReadANewEndpoint_DisableAndRotationReachTheConsumerAfterwards()
    {
        string oldSecret = WebhookRequests.NewSecret(), newSecret = WebhookRequests.NewSecret();
        await using var scene = await WebhookScene.StartAsync([oldSecret, newSecret], oldSecret);
        var receiver = scene.Receiver;
        foreach (string name in (string[])["partner", "rotating"])
        {
            await scene.AddEndpointAsync(name, receiver.PlainUrl!, allowPrivate: true);
        }

        // Registered an hour ago: the consumer's load reads them with that changed_at.
        await ExecuteAsync("UPDATE {0}.webhook_endpoint SET created_at = now() - interval '1 hour', changed_at = now() - interval '1 hour'");
        RefreshFailingStore? store = null;
        await using var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, b => RefreshFailingStore.Install(b, s => store = s),
            ("Webhooks:RefreshInterval", "00:00:00.200"));
        await using var producer = await WorkerHost.StartProducerAsync(scene.Broker);
        await DeliveredAsync(receiver, await scene.InsertAsync("rotating", 1));

        // The refresh query fails; meanwhile (ten minutes ago, as far as changed_at tells) an operator disabled one endpoint
        // and rotated the other's secret...
        store!.Failing = true;
        await store.WaitUntilAsync(s => s.Failed > 0, Patience, "a failed refresh");
        await ExecuteAsync("""
            UPDATE {0}.webhook_endpoint SET disabled_at = now(), disabled_reason = 'partner migrating', changed_at = clock_timestamp() - interval '10 minutes'
            WHERE name = 'partner'
            """);
        await ExecuteAsync("""
            UPDATE {0}.webhook_endpoint SET previous_secret = secret, secret = @newSecret, previous_secret_until = now() + interval '1 hour',
                changed_at = clock_timestamp() - interval '10 minutes'
            WHERE name = 'rotating'
            """, new { newSecret });
        // ...and added a third, which a handler reads from the table when its first webhook comes.
        await scene.AddEndpointAsync("newcomer", receiver.PlainUrl!, allowPrivate: true);
        await DeliveredAsync(receiver, await scene.InsertAsync("newcomer", 1));

        store.Failing = false;
        int succeeded = store.Succeeded;
        await store.WaitUntilAsync(s => s.Succeeded >= succeeded + 2, Patience, "two refreshes after the failures");

        var endpoints = consumer.Get<WebhookEndpoints>();
        Assert.True(endpoints.Find("partner")?.DisabledAt is not null, "the disable did not reach the consumer's cache");
        Assert.True(endpoints.Find("rotating")?.Secret == newSecret, "the rotation did not reach the consumer's cache");
        long disabled = (await scene.InsertAsync("partner", 1))[0];
        var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(disabled), r => r.Count > 0, Patience, "dead letter");
        Assert.Contains("partner migrating", Assert.Single(reasons), StringComparison.Ordinal);
        long rotated = (await scene.InsertAsync("rotating", 1))[0];
        var delivery = (await DeliveredAsync(receiver, [rotated]))[0];
        string signatures = delivery.Headers[StandardWebhookVerifier.SignatureHeader];
        var verdict = new StandardWebhookVerifier([newSecret]).Verify(
            delivery.Id, delivery.Headers[StandardWebhookVerifier.TimestampHeader], signatures, delivery.Body, delivery.ArrivedAt);
        Assert.True(verdict.Verified, $"not signed with the new secret: {verdict.Reason}");
        Assert.Equal(0, receiver.CountFor(WebhookScene.Key(disabled)));
    }

    private static async Task<IReadOnlyList<WebhookDelivery>> DeliveredAsync(WebhookReceiver receiver, IReadOnlyList<long> ids)
    {
        string key = WebhookScene.Key(ids[0]);
        return await Eventually.WaitAsync(
            () => Task.FromResult<IReadOnlyList<WebhookDelivery>>(receiver.Deliveries.Where(d => d.Id == key && d.AnsweredStatus == 200 && d.Verdict.Verified).ToList()),
            d => d.Count > 0, Patience, $"webhook {key} accepted");
    }

    private static async Task ExecuteAsync(string sql, object? parameters = null)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(string.Format(System.Globalization.CultureInfo.InvariantCulture, sql, TestDatabase.Schema), parameters);
    }
}
