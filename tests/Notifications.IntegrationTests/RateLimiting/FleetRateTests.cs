using Notifications.Consumer.RateLimiting;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Shutdown;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// The rate limit holds for the fleet, not per process: two consumer processes share one database GCRA row, and the
/// smtp-sink sees the configured rate of the limited domain while the other domain goes at full speed.
/// </summary>
[Collection("services")]
public sealed class FleetRateTests(ITestOutputHelper output)
{
    private const string Limited = "limited.test";
    private const string Free = "free.test";
    private const double Limit = 200;
    private static readonly TimeSpan Warmup = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan Window = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);

    [Fact]
    public async Task TwoConsumerProcesses_OneDomainAt200PerSecond_SinkSees200PerSecondThereAndFullSpeedForTheOther()
    {
        var db = await TestDatabase.CleanAsync();
        await SinkArrivals.ClearLimitsAsync();
        await using var broker = await TestBroker.CreateAsync();
        broker.Owns(RateLimitLanes.QueueName(broker.Options, Limited));
        await using var sink = await SmtpSink.StartAsync();
        // 8,000 for the limited domain (40 s at 200/s: the window and some to spare), 6,000 for the other, interleaved.
        var ids = await SinkArrivals.InsertAsync(14_000, every: 7, limitedPerEvery: 4, Limited, Free);
        (string, string)[] settings =
        [
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("Smtp:Security", "None"), ("Consumer:Handlers", "16"), ($"RateLimits:Domains:{Limited}", "200/s"),
        ];
        await using var first = WorkerProcess.Start("Consumer", broker, settings);
        await using var second = WorkerProcess.Start("Consumer", broker, settings);
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await first.WaitWhileRunningAsync(() => Task.FromResult(sink.MessageCount()), n => n >= ids.Count, Patience, "all delivered");
        }

        var arrivals = SinkArrivals.ByDomain(sink);
        var limited = arrivals[Limited];
        var free = arrivals[Free];
        double rate = SinkArrivals.RateWithin(limited, limited[0] + Warmup, Window);
        double freeRate = free.Count / (free[^1] - free[0]).TotalSeconds;
        output.WriteLine($"{Limited}: {rate:F1}/s over {Window.TotalSeconds} s (limit {Limit}/s), {limited.Count} in {(limited[^1] - limited[0]).TotalSeconds:F1} s");
        output.WriteLine($"{Free}: {free.Count} in {(free[^1] - free[0]).TotalSeconds:F1} s = {freeRate:F0}/s; last one {(free[^1] - limited[0]).TotalSeconds:F1} s after the first limited one");

        Assert.InRange(rate, Limit * 0.95, Limit * 1.05);
        Assert.True(limited[^1] - limited[0] >= TimeSpan.FromSeconds(8_000 / Limit * 0.95), "the limited domain took its time");
        // Full speed: the other domain is not held to the limit (it went several times as fast) and was done long
        // before the limited one.
        Assert.True(freeRate > 3 * Limit, $"{Free} went at {freeRate:F0}/s");
        Assert.True(free[^1] < limited[^1] - TimeSpan.FromSeconds(15), "the other domain finished long before the limited one");
        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
        Assert.Equal(0u, await broker.CountAsync(RateLimitLanes.QueueName(broker.Options, Limited)));
    }
}
