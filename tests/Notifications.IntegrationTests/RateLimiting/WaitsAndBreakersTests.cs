using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Webhooks;
using Polly.CircuitBreaker;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// Rate limits and breakers apart (issue 27, defect 12): a wait for a rate-limit slot is not part of a send — no send timeout
/// cuts it, it is no relay failure and spends no attempt — and the SMTP relay's open breaker does not hold up a webhook
/// host's rate-limit lane.
/// </summary>
[Collection("services")]
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
public sealed class WaitsAndBreakersTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task RelayLimitWaitLongerThanTheSendTimeout_NoTimeoutNoRetry_DeliveredOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await SinkArrivals.ClearLimitsAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        // 40 at 2/s with 16 handlers: a handler waits up to 8 s for its slot, more than twice the send timeout of 3 s, which an
        // SMTP transaction stays well within even on a loaded machine (at 1 s, 6 of 40 timed out at a load of 56).
        var ids = await SinkArrivals.InsertAsync(40, every: 1, limitedPerEvery: 0, "unused.test", "free.test");

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("RateLimits:Relay", "2/s"), ("Relay:SendTimeout", "00:00:03")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            var stats = consumer.Get<ConsumerStats>();
            output.WriteLine($"{ids.Count} at 2/s: {stats.Retried} retried, {stats.DeadLettered} dead-lettered, relay breaker {consumer.Get<RelayBreaker>().State}");
            Assert.Equal(0L, stats.Retried);
            Assert.Equal(CircuitState.Closed, consumer.Get<RelayBreaker>().State);
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
        Assert.Equal(0, await db.CountAsync("dead_letter"));
    }

    [Fact]
    public async Task RelayBreakerOpen_WebhooksInTheirHostsLane_GoOnAtTheirRate()
    {
        const string Endpoint = "paced";
        await using var scene = await WebhookScene.StartAsync();
        await SinkArrivals.ClearLimitsAsync();
        string host = scene.Receiver.PlainUrl!.IdnHost;
        string lane = RateLimitLanes.QueueName(scene.Broker.Options, host);
        scene.Broker.Owns(lane);
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        var webhooks = await scene.InsertAsync(Endpoint, 30);

        await using var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink,
            ($"RateLimits:Domains:{host}", "2/s"), ("Relay:BreakDuration", "00:02:00"));
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            // Most of them moved into their host's lane (beyond what its channel holds), where they wait for their slots.
            await Eventually.WaitAsync(() => scene.Broker.CountAsync(lane), n => n >= 15, Patience, "webhooks waiting in their host's lane");
            // Then the relay goes down: emails fail until its breaker opens, and stays open for the rest of the test.
            await scene.Sink.StopAsync();
            await SinkArrivals.InsertAsync(20, every: 1, limitedPerEvery: 0, "unused.test", "mail.test");
            var relay = consumer.Get<RelayBreaker>();
            await Eventually.WaitAsync(() => Task.FromResult(relay.State), s => s == CircuitState.Open, Patience, "the relay's breaker open");
            int before = webhooks.Count(id => scene.Accepted(id).Count > 0);

            // 2/s: the rest within about 15 s — unless the lane waits for the relay's breaker (open for 2 minutes).
            await Eventually.WaitAsync(() => Task.FromResult(webhooks.Count(id => scene.Accepted(id).Count > 0)), n => n == webhooks.Count,
                TimeSpan.FromSeconds(45), "every webhook delivered while the relay's breaker is open");
            output.WriteLine($"{before} webhooks delivered when the relay's breaker opened, the other {webhooks.Count - before} while it was open");
            Assert.Equal(CircuitState.Open, relay.State);
            Assert.True(before < webhooks.Count / 2, $"{before} of {webhooks.Count} delivered before the relay's breaker opened: too few left to tell");
        }

        Assert.All(webhooks, id => Assert.Single(scene.Accepted(id)));
        Assert.Empty(await scene.DeadLetterReasonsAsync(webhooks[0]));
    }
}
