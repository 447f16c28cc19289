using Dapper;
using Notifications.Consumer.Channels.Webhook;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// Webhooks while things change under a running consumer: an operator disables the endpoint (every consumer sees it within
/// the refresh interval), and a receiver that takes the request and never answers (a timeout after the request was sent:
/// at least once sends it again, at most once never does).
/// </summary>
[Collection("services")]
public sealed class WebhookLifecycleTests
{
    private const string Endpoint = "partner-c";
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task DisabledWhileRunning_NextRowDeadLetteredWithTheOperatorsReason()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        long first = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Webhooks:RefreshInterval", "00:00:00.200")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(scene.Accepted(first).Count), n => n == 1, Patience, "first delivered");
            await using (var connection = await TestDatabase.OpenAsync())
            {
                await connection.ExecuteAsync($"""
                    UPDATE {TestDatabase.Schema}.webhook_endpoint SET disabled_at = now(), disabled_reason = 'partner migrating', changed_at = clock_timestamp()
                    WHERE name = @Endpoint
                    """, new { Endpoint });
            }

            // The operator's change reaches the running consumer through its refresh, not through a restart.
            var endpoints = consumer.Get<WebhookEndpoints>();
            await Eventually.WaitAsync(() => Task.FromResult(endpoints.Find(Endpoint)?.DisabledAt), at => at is not null, Patience, "disable seen by the consumer");
            long next = (await scene.InsertAsync(Endpoint, 1))[0];
            var reasons = await Eventually.WaitAsync(() => scene.DeadLetterReasonsAsync(next), r => r.Count > 0, Patience, "dead letter");
            Assert.Contains($"webhook endpoint '{Endpoint}' is disabled since", Assert.Single(reasons), StringComparison.Ordinal);
            Assert.Contains("partner migrating", reasons[0], StringComparison.Ordinal);
            Assert.Equal(0, scene.Receiver.CountFor(WebhookScene.Key(next)));
        }
    }

    [Theory]
    [InlineData("AtLeastOnce", 2)]
    [InlineData("AtMostOnce", 1)]
    public async Task ReceiverHangsAfterTheRequest_TimeoutUnknown_SentAgainOnlyAtLeastOnce(string mode, int expectedRequests)
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Next(1, ScriptedAnswer.Never);
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", mode), ("Webhooks:Timeout", "00:00:01")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            string settled = mode == "AtLeastOnce" ? "sent" : "sending";
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync(settled), n => n == 1, Patience, $"delivery log '{settled}'");
            await Eventually.WaitAsync(() => scene.Broker.CountAsync(scene.Broker.Options.Queue), n => n == 0, Patience, "work queue empty");
            await Task.Delay(TimeSpan.FromSeconds(2));   // a resend, were there one, would have come by now
        }

        Assert.Equal(expectedRequests, scene.Receiver.CountFor(WebhookScene.Key(id)));
        Assert.Equal(expectedRequests - 1, scene.Accepted(id).Count);
        Assert.Empty(await scene.DeadLetterReasonsAsync(id));
    }
}
