using System.Diagnostics;
using System.Globalization;

namespace Notifications.Harness.FanOut;

/// <summary>
/// <c>fanout --single</c>: rows to single subscribers (each with <c>--devices-per-subscriber</c> devices, the seeded ones in turn)
/// at a steady <c>--rate</c> for <c>--duration</c>, a small INSERT every 5 ms as the latency mode offers its rows, producers
/// polling as eagerly as there; then drained. Each row's insert (its commit) to its last device, from the push server's
/// arrival times, leaving out rows committed in the first <c>--latency-warmup</c> (JIT, connections) from the percentiles.
/// </summary>
internal sealed class FanOutSingleRun(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker, FanOutRegistry registry)
{
    private static readonly TimeSpan Drain = TimeSpan.FromSeconds(30);

    public async Task<FanOutResult> RunAsync(string runDirectory)
    {
        var fanOut = options.FanOut;
        var rows = new FanOutRows(db.DataSource, options.Channel);
        await using var pipeline = await FanOutPipeline.StartAsync(env, options, broker, registry, runDirectory, LatencyCommand.EagerPolling);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  offering {options.Rate}/s rows to single subscribers ({fanOut.Subscribers:N0} in turn, {fanOut.DevicesPerSubscriber} devices each) for {options.Duration.TotalSeconds:F0} s"));
        double loadBefore = ProcStat.LoadAverage();
        pipeline.StartMeters();
        var clock = Stopwatch.StartNew();
        var committed = new Dictionary<string, long>(StringComparer.Ordinal);
        var offering = OfferAsync(rows, clock, committed);
        var progress = new ProgressLine(0);
        while (!offering.IsCompleted || await ReceivedAsync(pipeline) < Offered(committed) * fanOut.DevicesPerSubscriber && clock.Elapsed < options.Duration + Drain)
        {
            await Task.Delay(TimeSpan.FromSeconds(1));
            pipeline.SampleMeters();
            progress.Print(clock.Elapsed, (await rows.JobsAsync()).Published, await ReceivedAsync(pipeline), await broker.DepthAsync());
        }

        await offering;
        pipeline.StopMeters();
        double wall = clock.Elapsed.TotalSeconds;
        var peakRss = pipeline.PeakRss();
        double loadAfter = ProcStat.LoadAverage();
        var counts = await pipeline.ArrivalCountsAsync();
        var arrivals = await pipeline.Target.ArrivalsAsync();
        long warmEnd = committed.Count == 0 ? 0 : committed.Values.Min() + (long)(options.LatencyWarmup.TotalMilliseconds * 1000);
        var measured = committed.Where(c => c.Value >= warmEnd).ToDictionary(c => c.Key, c => c.Value, StringComparer.Ordinal);
        var (lastDevice, _) = FanOutArrivals.LastDevice(measured, arrivals, fanOut.DevicesPerSubscriber);
        var (_, incomplete) = FanOutArrivals.LastDevice(committed, arrivals, fanOut.DevicesPerSubscriber);
        // Row by row, in commit order: whether a tail is a few stalls or spread over the run.
        await File.WriteAllLinesAsync(Path.Combine(runDirectory, "rows.csv"), FanOutArrivals.RowsCsv(committed, arrivals));
        var result = new FanOutResult
        {
            Kind = "single", Channel = options.Channel, Subscribers = fanOut.Subscribers, DevicesPerSubscriber = fanOut.DevicesPerSubscriber,
            PageSize = fanOut.PageSize, Producers = options.Producers, Consumers = options.Consumers, Handlers = options.Handlers[0],
            Inserted = committed.Count, Expected = (long)committed.Count * fanOut.DevicesPerSubscriber, Published = (await rows.JobsAsync()).Published,
            Received = counts.Distinct, Duplicates = counts.Duplicates, Refused = await pipeline.RefusedAsync(),
            RatePerMinute = counts.Distinct * 60 / Math.Max(0.001, wall),
            OfferedRate = options.Rate, Incomplete = incomplete,
            LastDeviceP50Ms = UrgentFlow.Percentile(lastDevice, 0.50),
            LastDeviceP99Ms = UrgentFlow.Percentile(lastDevice, 0.99),
            LastDeviceMaxMs = lastDevice.Count == 0 ? 0 : lastDevice[^1],
            Cpu = pipeline.Split(counts.Distinct), PeakRssMib = peakRss, WallSeconds = wall, LoadBefore = loadBefore, LoadAfter = loadAfter,
        };
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {result.Inserted:N0} rows, {lastDevice.Count:N0} measured after the {options.LatencyWarmup.TotalSeconds:F0} s warm-up; insert -> last device "
            + $"p50 {result.LastDeviceP50Ms:F1} ms, p99 {result.LastDeviceP99Ms:F1} ms, max {result.LastDeviceMaxMs:F1} ms; {incomplete:N0} rows missing a device"));
        return result;
    }

    private static async Task<long> ReceivedAsync(FanOutPipeline pipeline) => (await pipeline.ArrivalCountsAsync()).Distinct;

    private static long Offered(Dictionary<string, long> committed)
    {
        lock (committed)
        {
            return committed.Count;
        }
    }

    // Keeps rows = rate x elapsed: one statement (its own transaction) every 5 ms, to the next subscribers in turn.
    private async Task OfferAsync(FanOutRows rows, Stopwatch clock, Dictionary<string, long> committed)
    {
        using var tick = new PeriodicTimer(TimeSpan.FromMilliseconds(5));
        long number = 0;
        while (clock.Elapsed < options.Duration && await tick.WaitForNextTickAsync())
        {
            int due = (int)((long)(clock.Elapsed.TotalSeconds * options.Rate) - number);
            if (due <= 0)
            {
                continue;
            }

            var ids = Enumerable.Range(1, due).Select(i => FanOutRows.Id(number + i)).ToArray();
            var subscribers = Enumerable.Range(1, due).Select(i => FanOutRegistry.SubscriberId(((number + i - 1) % options.FanOut.Subscribers) + 1)).ToArray();
            long at = await rows.InsertSubscribersAsync(subscribers, ids);
            lock (committed)
            {
                Array.ForEach(ids, id => committed[id] = at);
            }

            number += due;
        }
    }
}
