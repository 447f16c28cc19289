using Dapper;
using Notifications.Consumer.RateLimiting;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// A real relay (smtp-sink) answering RCPT with 452: the consumer lowers the domain's fleet-wide rate in the database,
/// the messages are delivered once the relay takes them again, and the configured rate comes back after SlowDownFor.
/// </summary>
[Collection("services")]
public sealed class SlowDownReplyTests
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
