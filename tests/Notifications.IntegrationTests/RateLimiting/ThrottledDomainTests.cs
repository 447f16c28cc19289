using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// A domain held to its rate for far longer than all retry delays together: its messages wait in its lane, spend no
/// attempt and are never dead-lettered, and another domain queued behind them goes through at once.
/// </summary>
[Collection("services")]
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
public sealed class ThrottledDomainTests(ITestOutputHelper output)
{
    private const string Slow = "slow.test";
    private const string Free = "free.test";
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task DomainWaitingForItsRate_SpendsNoAttemptAndDoesNotHoldBackAnotherDomain(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        await SinkArrivals.ClearLimitsAsync();
        // Three attempts within 0.6 s: a message that paid an attempt per wait would be dead-lettered many times over.
        await using var broker = await TestBroker.CreateAsync();
        broker.Owns(RateLimitLanes.QueueName(broker.Options, Slow));
        await using var sink = await SmtpSink.StartAsync();
        // 100 for the slow domain first (10 s at 10/s; more than the 16 handlers hold), then 300 others behind them.
        var ids = (await SinkArrivals.InsertAsync(100, every: 1, limitedPerEvery: 1, Slow, Free)).ToList();
        ids.AddRange(await SinkArrivals.InsertAsync(300, every: 1, limitedPerEvery: 0, Slow, Free));

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Consumer:DeliveryMode", mode), ($"RateLimits:Domains:{Slow}", "10/s")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            Assert.Equal(0L, consumer.Get<ConsumerStats>().Retried);
        }

        var arrivals = SinkArrivals.ByDomain(sink);
        var slow = arrivals[Slow];
        var free = arrivals[Free];
        output.WriteLine($"{Slow}: {slow.Count} in {(slow[^1] - slow[0]).TotalSeconds:F1} s; {Free}: {free.Count} in {(free[^1] - free[0]).TotalSeconds:F1} s, "
            + $"last {(free[^1] - slow[0]).TotalSeconds:F1} s after the first {Slow}");
        // 99 intervals of 100 ms between the first and the last slot; the first one may reach the sink late, behind others.
        Assert.True(slow[^1] - slow[0] >= TimeSpan.FromSeconds(8), "the slow domain was held to 10/s");
        // Queued behind the slow ones, yet (nearly) all through before half of the slow ones: nothing waited for them.
        // Waiting in the handlers instead would hold the others back until the last slow ones were taken (~8 s).
        Assert.True(free[free.Count * 9 / 10] < slow[slow.Count / 2], "the other domain did not wait behind the slow one");
        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
        Assert.Equal(0u, await broker.CountAsync(RateLimitLanes.QueueName(broker.Options, Slow)));
        Assert.Equal(0, await db.CountLogAsync("sending"));
    }
}
