using System.Diagnostics;
using System.Globalization;

namespace Notifications.Harness.FanOut;

/// <summary>
/// One topic row to every seeded subscriber: inserted once the workers are warm, then watched each second until every
/// expected device has it, or nothing moved for <see cref="Stall"/> after the job ended, or <c>--timeout</c> (the progress
/// line's backlog: deliveries not published yet). The milestones are read from the receiver's arrival times against the
/// row's commit.
/// </summary>
internal sealed class FanOutTopicRun(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker, FanOutRegistry registry)
{
    private static readonly TimeSpan Stall = TimeSpan.FromSeconds(30);

    public async Task<FanOutResult> RunAsync(string runDirectory)
    {
        var fanOut = options.FanOut;
        long expected = fanOut.ExpectedPerNotification;
        var rows = new FanOutRows(db.DataSource, options.Channel);
        await using var pipeline = await FanOutPipeline.StartAsync(env, options, broker, registry, runDirectory);
        double loadBefore = ProcStat.LoadAverage();
        pipeline.StartMeters();
        var clock = Stopwatch.StartNew();
        long committedAt = await rows.InsertTopicAsync("topic-1");
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  inserted topic:{FanOutBenchOptions.TopicName} ({options.Channel}); expecting {expected:N0} devices"));
        await WatchAsync(pipeline, rows, clock, expected);
        pipeline.StopMeters();
        double wall = clock.Elapsed.TotalSeconds;
        var peakRss = pipeline.PeakRss();
        double loadAfter = ProcStat.LoadAverage();

        var counts = await pipeline.ArrivalCountsAsync();
        var arrivals = (await pipeline.Target.ArrivalsAsync()).Values.SelectMany(a => a).Order().ToArray();
        var jobs = await rows.JobsAsync();
        long duplicates = options.Channel == "email" ? Math.Max(0, counts.Distinct - await db.CountSentAsync()) : counts.Duplicates;
        long received = counts.Distinct - (options.Channel == "email" ? duplicates : 0);
        return new FanOutResult
        {
            Kind = "topic", Channel = options.Channel, Subscribers = fanOut.Subscribers, DevicesPerSubscriber = fanOut.DevicesPerSubscriber,
            PageSize = fanOut.PageSize, Producers = options.Producers, Consumers = options.Consumers, Handlers = options.Handlers[0],
            Inserted = 1, Expected = expected, Published = jobs.Published, Received = received, Duplicates = duplicates,
            Refused = await pipeline.RefusedAsync(),
            Seconds50 = FanOutArrivals.SecondsTo(committedAt, arrivals, expected, 0.50),
            Seconds90 = FanOutArrivals.SecondsTo(committedAt, arrivals, expected, 0.90),
            Seconds100 = FanOutArrivals.SecondsTo(committedAt, arrivals, expected, 1.00),
            ClaimedAfterSeconds = (jobs.FirstClaimed - committedAt) / 1e6,
            LastPageAfterSeconds = (jobs.LastFinished - committedAt) / 1e6,
            RatePerMinute = FanOutArrivals.PerMinute(committedAt, arrivals),
            Cpu = pipeline.Split(received), PeakRssMib = peakRss, WallSeconds = wall, LoadBefore = loadBefore, LoadAfter = loadAfter,
        };
    }

    private async Task WatchAsync(FanOutPipeline pipeline, FanOutRows rows, Stopwatch clock, long expected)
    {
        var progress = new ProgressLine(expected);
        var lastMove = TimeSpan.Zero;
        long last = -1;
        while (clock.Elapsed < options.FanOut.Timeout)
        {
            await Task.Delay(TimeSpan.FromSeconds(1) - TimeSpan.FromTicks(clock.Elapsed.Ticks % TimeSpan.TicksPerSecond));
            pipeline.SampleMeters();
            var counts = await pipeline.ArrivalCountsAsync();
            var jobs = await rows.JobsAsync();
            progress.Print(clock.Elapsed, jobs.Published, counts.Distinct, await broker.DepthAsync());
            if (counts.Distinct >= expected)
            {
                return;
            }

            (lastMove, last) = counts.Distinct != last ? (clock.Elapsed, counts.Distinct) : (lastMove, last);
            if (jobs.Running == 0 && jobs.FirstClaimed is not null && clock.Elapsed - lastMove > Stall)
            {
                Console.WriteLine($"  the job ended and nothing arrived for {Stall.TotalSeconds:F0} s: the rest counts as lost");
                return;
            }
        }

        Console.WriteLine($"  --timeout {options.FanOut.Timeout}: the rest counts as lost");
    }
}
