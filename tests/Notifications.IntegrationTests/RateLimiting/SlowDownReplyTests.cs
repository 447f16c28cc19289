using Dapper;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Shared.Hosting;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Polly.CircuitBreaker;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// A real relay (smtp-sink) answering RCPT with 452: the consumer lowers the domain's fleet-wide rate in the database,
/// the messages are delivered once the relay takes them again, and the configured rate comes back after SlowDownFor.
/// </summary>
[Collection("services")]
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
public sealed class SlowDownReplyTests(ITestOutputHelper output)
{
    private const string Domain = "throttling.test";
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task RelayAnswers452_DomainRateGoesDownForTheFleet_AllDeliveredAfterwards_AndTheRateRecovers()
    {
        var db = await TestDatabase.CleanAsync();
        await SinkArrivals.ClearLimitsAsync();
        await using var broker = await TestBroker.CreateAsync(retryDelays: [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(4)]);
        broker.Owns(RateLimitLanes.QueueName(broker.Options, Domain));
        // Every RCPT is refused with "452" ("insufficient system storage": the server asks the sender to slow down).
        await using var sink = await SmtpSink.StartAsync("-r RCPT -b 452");
        var ids = await SinkArrivals.InsertAsync(20, every: 1, limitedPerEvery: 1, Domain, "unused.test");
        string key = RateLimitSettings.DomainKey(Domain);

        await using (await WorkerHost.StartConsumerAsync(broker, sink,
            ($"RateLimits:Domains:{Domain}", "50/s"), ("RateLimits:SlowDownFor", "00:00:03"),
            ("Relay:MinimumThroughput", "1000")))  // the breaker stays out of it: this is about the rate
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            var slowed = await Eventually.WaitAsync(() => RowAsync(key), r => r is { SlowFactor: >= 2 }, Patience, "domain slowed down");
            Assert.True(slowed!.SlowUntilUs > slowed.NowUs, "the reduced rate holds for a while");

            await sink.RestartAsync();
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
        }

        // Three seconds after the last 452, leases have the configured interval again (20 ms at 50/s).
        var recovered = await Eventually.WaitAsync(() => RowAsync(key), r => r!.SlowUntilUs < r.NowUs, TimeSpan.FromSeconds(10), "slow-down over");
        Assert.NotNull(recovered);
        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
    }

    /// <summary>
    /// Issue 16 item 6: the relay breaker at its defaults (open for 15 s after 10 failures) and a slow-down shorter than
    /// its break. The 452s to the limited domain are the limiter's: the breaker stays closed, and at the server the domain
    /// comes back at once but slowed, until SlowDownFor after the last 452, then at its rate. On main the breaker opened
    /// and held every send for 15 s, by which time the slow-down had ended unseen.
    /// </summary>
    [Fact]
    public async Task RelayAnswers452_BreakerAtItsDefaults_TheLimiterPacesTheDomainAtTheServer_AndTheBreakerStaysClosed()
    {
        const int Limit = 50;
        var slowDownFor = TimeSpan.FromSeconds(5);
        var refusing = TimeSpan.FromSeconds(3);
        var db = await TestDatabase.CleanAsync();
        await SinkArrivals.ClearLimitsAsync();
        await using var broker = await TestBroker.CreateAsync(retryDelays: new RabbitMqOptions().RetryDelays);   // the product's
        broker.Owns(RateLimitLanes.QueueName(broker.Options, Domain));
        await using var sink = await SmtpSink.StartAsync("-r RCPT -b 452");
        var ids = await SinkArrivals.InsertAsync(300, every: 1, limitedPerEvery: 1, Domain, "unused.test");
        string key = RateLimitSettings.DomainKey(Domain);
        var breakerStates = new HashSet<CircuitState>();
        DateTime accepting;

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ($"RateLimits:Domains:{Domain}", $"{Limit}/s"), ("RateLimits:SlowDownFor", "00:00:05")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            var relay = consumer.Get<RelayBreaker>();
            async Task<T> Watching<T>(Task<T> probe)
            {
                breakerStates.Add(relay.State);
                return await probe;
            }

            // The relay refuses every RCPT with 452 for 3 s from the first slow-down, then takes mail again.
            await Eventually.WaitAsync(() => Watching(RowAsync(key)), r => r is { SlowFactor: >= 2 }, Patience, "domain slowed down");
            var until = DateTime.UtcNow + refusing;
            await Eventually.WaitAsync(() => Watching(Task.FromResult(DateTime.UtcNow)), now => now >= until, Patience, "3 s of 452");
            await sink.RestartAsync();
            accepting = DateTime.UtcNow;
            await Eventually.WaitAsync(() => Watching(db.CountLogAsync("sent")), n => n == ids.Count, Patience, "all delivered");
        }

        var arrivals = SinkArrivals.ByDomain(sink)[Domain];
        var slowed = arrivals.Where(t => t < accepting + slowDownFor - TimeSpan.FromSeconds(1)).ToList();
        var after = arrivals.Where(t => t >= accepting + slowDownFor + TimeSpan.FromSeconds(1)).ToList();
        output.WriteLine($"first arrival {(arrivals[0] - accepting).TotalSeconds:F1} s after the relay took mail again; per second from then: "
            + $"{string.Join(' ', SinkArrivals.PerSecond(arrivals, accepting, arrivals[^1]))}; breaker states seen: {string.Join(", ", breakerStates)}");

        Assert.Equal([CircuitState.Closed], breakerStates);
        // Back at once — well before the breaker's 15 s break would have ended, however loaded the machine — at no more than
        // half the rate while the slow-down holds, then at the rate.
        Assert.True(arrivals[0] < accepting + TimeSpan.FromSeconds(10), $"first arrival {(arrivals[0] - accepting).TotalSeconds:F1} s after the relay took mail again");
        Assert.True(SinkArrivals.MostInAnyWindow(slowed, TimeSpan.FromSeconds(1)) <= (Limit / 2 * 1.1) + 5, "slowed down at the server");
        Assert.True(SinkArrivals.MostInAnyWindow(after, TimeSpan.FromSeconds(1)) >= Limit * 0.9, "the configured rate came back");
        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
    }

    private static async Task<RateRow?> RowAsync(string key)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleOrDefaultAsync<RateRow>(
            $"""
            SELECT slow_factor AS SlowFactor, slow_until_us AS SlowUntilUs, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS NowUs
            FROM {TestDatabase.Schema}.rate_limit WHERE name = @key
            """, new { key });
    }

    private sealed record RateRow(double SlowFactor, long SlowUntilUs, long NowUs);
}
