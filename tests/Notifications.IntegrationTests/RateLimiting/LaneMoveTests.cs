using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Polly.CircuitBreaker;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// Each rate-limited notification is moved into its domain's lane once per attempt, also when the relay breaker opens
/// while envelopes are being handled (issue 16, 6: a sibling's requeue brought the whole envelope back, and its limited
/// items, already moved, were moved again; the stale copies spent the domain's slots).
/// </summary>
[Collection("services")]
[Trait("Category", "Outage")]
public sealed class LaneMoveTests(ITestOutputHelper output)
{
    private const string Limited = "limited.test";
    private const string Free = "free.test";
    private const int Handlers = 16;
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(90);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task BreakerOpensWhileEnvelopesAreHandled_EachLimitedNotificationMovedOncePerAttempt(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        await SinkArrivals.ClearLimitsAsync();
        await using var broker = await TestBroker.CreateAsync(retryDelays: [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(4)]);
        string lane = RateLimitLanes.QueueName(broker.Options, Limited);
        broker.Owns(lane);
        await using var sink = await SmtpSink.StartAsync();
        var ids = await SinkArrivals.InsertAsync(2_000, every: 2, limitedPerEvery: 1, Limited, Free);

        long retried;
        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Consumer:DeliveryMode", mode), ("Consumer:Handlers", Handlers.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ($"RateLimits:Domains:{Limited}", "200/s")))
        await using (await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50")))
        {
            await sink.WaitForMessagesAsync(200, Patience);
            // Every RCPT refused for now (4xx) until the breaker opens with envelopes in the handlers.
            await sink.RestartAsync("-r RCPT");
            var relay = consumer.Get<RelayBreaker>();
            await Eventually.WaitAsync(() => Task.FromResult(relay.State), state => state != CircuitState.Closed, Patience, "the relay breaker open");
            await sink.RestartAsync();
            // Every notification ends in the log as sent, or at most once as marked and never sent (a send cut after its
            // final "." by a restart of the relay); until then the last limited ones may still wait for their slots.
            try
            {
                await Eventually.WaitAsync(async () => await db.CountLogAsync("sent") + await db.CountLogAsync("sending"), n => n == ids.Count,
                    Patience, "every notification logged as sent (or, at most once, marked)");
            }
            catch (TimeoutException timedOut)
            {
                var stats = consumer.Get<ConsumerStats>();
                // What became of the others, and what the queues still hold: a failure under load says where it went.
                throw new TimeoutException($"""
                    {timedOut.Message}; the others (notification_status):
                    {await db.DescribeOthersAsync(ids, "sent", "in_flight", "maybe_sent")}
                    work queue {await broker.CountAsync(broker.Options.Queue)}, lane {await broker.CountAsync(lane)}; consumer: delivered {stats.Delivered}, retried {stats.Retried}, dead-lettered {stats.DeadLettered}, unknown {stats.Unknown}, duplicates {stats.Duplicates}
                    """, timedOut);
            }

            retried = consumer.Get<ConsumerStats>().Retried;
        }

        using var management = BrokerManagement.Create();
        string vhost = BrokerManagement.VhostOf(broker.Options.Uri);
        // The broker's statistics come every 5 s: read until two readings 6 s apart agree.
        long moves = -1;
        for (long last = -2; moves != last;)
        {
            last = moves;
            await Task.Delay(TimeSpan.FromSeconds(6));
            moves = await management.PublishedIntoAsync(vhost, lane);
        }

        output.WriteLine($"{moves} moves into the lane for {ids.Count / 2} limited notifications; {retried} retries in all");
        // A retried limited notification comes back through the work queue and is moved again: once per attempt. (One
        // that finds a slot of its domain due is sent without the move.)
        Assert.InRange(moves, 0, (ids.Count / 2) + retried);
        // The relay's two restarts may each cut sends in the handlers after their final ".": sent again at least once,
        // lost at most once.
        var received = sink.CountByNotificationId();
        int lost = ids.Count(id => !received.ContainsKey(id));
        int duplicated = received.Values.Sum(n => n - 1);
        Assert.Equal(0, mode == "AtLeastOnce" ? lost : duplicated);
        Assert.InRange(mode == "AtLeastOnce" ? duplicated : lost, 0, 2 * Handlers);
        Assert.Equal(0u, await broker.CountAsync(lane));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
    }
}
