using Dapper;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Channels.Webhook;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.Shared.Contract;
using Polly.CircuitBreaker;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// Webhooks while things change under a running consumer: an operator disables the endpoint (every consumer sees it within
/// the refresh interval), one endpoint failing while another works (its own breaker opens, the other's stays closed), and a receiver that takes the request and never answers (a timeout after the request was sent:
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

    [Fact]
    public async Task OneEndpointFailing_ItsBreakerOpensAndParks_TheOtherEndpointDelivered()
    {
        await using var scene = await WebhookScene.StartAsync();
        await using var healthy = await WebhookReceiver.StartAsync([scene.Secret], plainHttp: true);
        await scene.AddEndpointAsync("failing", scene.Receiver.PlainUrl!, allowPrivate: true);
        await scene.AddEndpointAsync("healthy", healthy.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Always(ScriptedAnswer.With(System.Net.HttpStatusCode.InternalServerError));
        var failing = await scene.InsertAsync("failing", 40);
        var working = await scene.InsertAsync("healthy", 40);

        await using (var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Relay:BreakDuration", "00:02:00")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var channel = consumer.Get<IEnumerable<IChannel>>().OfType<WebhookChannel>().Single();
            var breakerOf = (string name) => channel.BreakerFor(new NotificationMessage(0, name, "probe", null, false, DateTimeOffset.UtcNow, null));
            await Eventually.WaitAsync(() => Task.FromResult(breakerOf("failing").State), s => s == CircuitState.Open, Patience, "the failing endpoint's breaker open");
            await Eventually.WaitAsync(() => Task.FromResult(working.Count(id => healthy.CountFor(WebhookScene.Key(id)) == 1)), n => n == working.Count, Patience, "the healthy endpoint's webhooks");
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == working.Count, Patience, "delivery log 'sent'");
            Assert.Equal(CircuitState.Closed, breakerOf("healthy").State);
        }

        // Parked while the breaker is open, not spent: most of the failing endpoint's webhooks were never sent nor dead-lettered.
        Assert.True(scene.Receiver.Deliveries.Count < failing.Count, $"{scene.Receiver.Deliveries.Count} requests to the failing endpoint");
        Assert.True(await scene.Db.CountAsync("dead_letter") < failing.Count / 2, "dead letters of the failing endpoint");
    }
}
