using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// <c>run</c>: the one-minute killswitch experiment, <c>--runs</c> times; the table shows every run and
/// the median by rate; with <c>--ceilings</c> the stage ceilings follow, as ratios of the median run.
/// With <c>--baseline</c> each of our runs is followed by the same run of the original experiment's consumer
/// (fresh reset, same rows), and the report ends with "ours / original" of the median rates.
/// </summary>
internal sealed class RunCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker, CeilingRunner ceilings)
{
    public async Task<int> RunAsync(string name)
    {
        var runs = new List<RunResult>();
        var baselines = new List<RunResult>();
        for (int i = 1; i <= options.Runs; i++)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> run {i} of {options.Runs}"));
            var run = await new PipelineRun(env, options, db, broker).RunAsync(
                options.Handlers[0], options.PrefetchFor(options.Prefetch[0], options.Envelope[0]), options.Batch[0], options.Duration,
                Path.Combine(env.OutputDirectory, name, $"run-{i}"));
            runs.Add(run);
            ResultsReport.PrintTable([run]);
            if (options.Baseline)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> run {i} of {options.Runs}: the original consumer (baseline)"));
                var original = await new PipelineRun(env, options, db, broker).RunAsync(
                    options.BaselineHandlers, options.BaselinePrefetch, options.Batch[0], options.Duration,
                    Path.Combine(env.OutputDirectory, name, $"run-{i}-baseline"), baseline: true);
                baselines.Add(original);
                ResultsReport.PrintTable([original]);
            }
        }

        var median = Median(runs);
        var comparison = options.Baseline ? new BaselineComparison(median, Median(baselines)) : null;
        IReadOnlyList<CeilingResult> measured = options.Ceilings ? await ceilings.MeasureAsync(options.Handlers[0] * options.Consumers) : [];
        Console.WriteLine($"\n==> {runs.Count} run(s); the median by rate is run {runs.IndexOf(median) + 1}");
        ResultsReport.PrintTable(runs);
        if (comparison is not null)
        {
            Console.WriteLine($"\n==> the original consumer (baseline): {baselines.Count} run(s); the median by rate is run {baselines.IndexOf(comparison.Original) + 1}");
            ResultsReport.PrintTable(baselines);
            comparison.Print();
        }

        if (measured.Count > 0)
        {
            ResultsReport.PrintCeilings(measured, median);
        }

        object? baseline = comparison is null ? null : new
        {
            runs = baselines,
            median = comparison.Original,
            comparison.RateRatio,
            comparison.ConsumerCpuRatio,
            comparison.TotalCpuRatio,
        };
        ResultsReport.Write(env.OutputDirectory, name, new { options = Describe(options), runs, median, baseline, ceilings = measured }, [.. runs, .. baselines]);
        return Check([.. runs, .. baselines]);
    }

    private static RunResult Median(List<RunResult> runs) => runs.OrderBy(r => r.RatePerMinute).ElementAt(runs.Count / 2);

    /// <summary>
    /// Non-zero when a run lost notifications: fewer in the delivery log or at the server than the consumers delivered; for
    /// webhook and push also a notification sent in the log that the receiver never accepted, a request it refused (a bad
    /// signature or token: the sender's defect), or in at-most-once any id accepted twice.
    /// </summary>
    internal static int Check(IReadOnlyList<RunResult> runs)
    {
        foreach (var r in runs)
        {
            string? error = r switch
            {
                _ when r.LogSent < r.DeliveredTotal || r.SinkReceived < r.DeliveredTotal =>
                    $"delivered {r.DeliveredTotal} but the log has {r.LogSent} and the {(r.Receipts is null ? "sink" : "receiver")} {r.SinkReceived}",
                { Lost: > 0 } => $"lost {r.Lost}: the delivery log has {r.LogSent} sent, the {r.Channel} receiver accepted {r.SinkReceived} distinct ids",
                { Receipts.Refused: > 0 } => $"the {r.Channel} receiver refused {r.Receipts!.Refused} requests (signature, token or payload): see its log",
                { DeliveryMode: "AtMostOnce", Receipts.Duplicates: > 0 } => $"at most once, yet the {r.Channel} receiver accepted {r.Receipts!.Duplicates} duplicates",
                _ => null,
            };
            if (error is not null)
            {
                Console.Error.WriteLine($"error: {error}");
                return 1;
            }
        }

        return 0;
    }

    internal static object Describe(HarnessOptions o) => new
    {
        o.Mode, o.Rows, DurationSeconds = o.Duration.TotalSeconds, o.Producers, o.Consumers, o.Handlers, o.Prefetch, o.Batch,
        o.Channels, o.DeliveryMode, o.Sender, o.Channel, o.PushProviders, o.Runs, o.Rate, o.Queue, o.Label, o.WorkerEnvironment,
        o.Baseline, o.BaselineHandlers, o.BaselinePrefetch, o.Template,
        Machine = $"{Environment.ProcessorCount} cores, {GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1L << 30)} GiB",
        Date = DateTimeOffset.UtcNow,
    };
}
