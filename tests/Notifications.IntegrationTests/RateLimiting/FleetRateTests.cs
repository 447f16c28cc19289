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
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
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
        // 8,000 for the limited domain (40 s at 200/s: the window and some to spare), 3,000 for the other, interleaved.
        var ids = await SinkArrivals.InsertAsync(11_000, every: 11, limitedPerEvery: 8, Limited, Free);
        (string, string)[] settings =
        [
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("Smtp:Security", "None"), ("Consumer:Handlers", "16"), ($"RateLimits:Domains:{Limited}", "200/s"),
        ];
        await using var first = WorkerProcess.Start("Consumer", broker, settings);
        await using var second = WorkerProcess.Start("Consumer", broker, settings);
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            // The delivery log is the cheap probe (a scan of the sink's 11,000 files ten times a second is not).
            await first.WaitWhileRunningAsync(() => db.CountLogAsync("sent"), n => n >= ids.Count, Patience, "all delivered");
            await sink.WaitForMessagesAsync(ids.Count, Patience);
        }

        // Both processes took their share (the limit is the fleet's, not one process's): each says so as it stops.
        double cpuSeconds = first.CpuSeconds() + second.CpuSeconds();
        long[] delivered = [await StoppedAsync(first), await StoppedAsync(second)];
        var arrivals = SinkArrivals.ByDomain(sink);
        var limited = arrivals[Limited];
        var free = arrivals[Free];
        double rate = SinkArrivals.RateWithin(limited, limited[0] + Warmup, Window);
        double freeRate = free.Count / (free[^1] - free[0]).TotalSeconds;
        output.WriteLine($"{Limited}: {rate:F1}/s over {Window.TotalSeconds} s (limit {Limit}/s), {limited.Count} in {(limited[^1] - limited[0]).TotalSeconds:F1} s");
        output.WriteLine($"{Free}: {free.Count} in {(free[^1] - free[0]).TotalSeconds:F1} s = {freeRate:F0}/s; last one {(free[^1] - limited[0]).TotalSeconds:F1} s after the first limited one");

        output.WriteLine($"delivered by the two processes: {delivered[0]} and {delivered[1]}; "
            + $"their CPU: {cpuSeconds:F1} s = {cpuSeconds * 1000 / ids.Count:F2} ms per notification; load average {File.ReadAllText("/proc/loadavg").Trim()}");

        // Never over the limit by more than 5 %: the receiver's protection. At least 90 %: not per process (it would be twice
        // the limit) and not starved (the defects this caught: 135.9 and 151.9/s). The last few percent are issue 27's item 19,
        // open (slots a process comes to late are given up): 195.7-197.1/s as a rule here, and 189.8/s in one fresh-clone run
        // of 224d4a5, which failed the old bound of 95 % (docs/rate-limits.md).
        Assert.InRange(rate, Limit * 0.90, Limit * 1.05);
        // Full speed: the other domain is not paced by the limit. It goes as fast as the work queue drains (it shares that
        // queue, 3 in 11, with the limited domain's moves into its lane), so it is through well before the limited domain;
        // held to the limited pace it would end with it. Measured against the limited domain's own span, not a fixed time:
        // a fresh-clone run whose consumers took 4.0 ms of CPU per notification (2.4-2.6 as a rule) put the other domain
        // through in 26.4 s, 63 % of the limited domain's 42.2 s, and a bound of 25 s failed it.
        var span = limited[^1] - limited[0];
        Assert.True(free[^1] < limited[0] + (span * 0.75),
            $"the other domain ({freeRate:F0}/s) was not through well before the limited one: its last {(free[^1] - limited[0]).TotalSeconds:F1} s after the limited domain's first, whose span is {span.TotalSeconds:F1} s");
        Assert.All(delivered, n => Assert.True(n > ids.Count / 10, $"one process delivered only {n}"));
        Assert.Equal(ids.Count, delivered.Sum());
        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
        Assert.Equal(0u, await broker.CountAsync(RateLimitLanes.QueueName(broker.Options, Limited)));
    }

    private static async Task<long> StoppedAsync(WorkerProcess consumer)
    {
        await consumer.TerminateAsync();
        Assert.Equal(0, await consumer.WaitForExitAsync(TimeSpan.FromSeconds(60)));
        var match = System.Text.RegularExpressions.Regex.Match(consumer.Output, @"Consumer stopped: (\d+) delivered");
        Assert.True(match.Success, consumer.Output);
        return long.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
    }
}
