using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// <c>run</c>: the one-minute killswitch experiment, <c>--runs</c> times; the table shows every run and
/// the median by rate; with <c>--ceilings</c> the stage ceilings follow, as ratios of the median run.
/// </summary>
internal sealed class RunCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker, CeilingRunner ceilings)
{
    public async Task<int> RunAsync(string name)
    {
        var runs = new List<RunResult>();
        for (int i = 1; i <= options.Runs; i++)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> run {i} of {options.Runs}"));
            var run = await new PipelineRun(env, options, db, broker).RunAsync(
                options.Handlers[0], options.Prefetch[0], options.Batch[0], options.Duration,
                Path.Combine(env.OutputDirectory, name, $"run-{i}"));
            runs.Add(run);
            ResultsReport.PrintTable([run]);
        }

        var median = runs.OrderBy(r => r.RatePerMinute).ElementAt(runs.Count / 2);
        IReadOnlyList<CeilingResult> measured = options.Ceilings ? await ceilings.MeasureAsync(options.Handlers[0] * options.Consumers) : [];
        Console.WriteLine($"\n==> {runs.Count} run(s); the median by rate is run {runs.IndexOf(median) + 1}");
        ResultsReport.PrintTable(runs);
        if (measured.Count > 0)
        {
            ResultsReport.PrintCeilings(measured, median);
        }

        ResultsReport.Write(env.OutputDirectory, name, new { options = Describe(options), runs, median, ceilings = measured }, runs);
        return Check(runs);
    }

    /// <summary>Non-zero when a run lost notifications: fewer in the delivery log than the consumers delivered.</summary>
    internal static int Check(IReadOnlyList<RunResult> runs)
    {
        foreach (var r in runs.Where(r => r.LogSent < r.DeliveredTotal || r.SinkReceived < r.DeliveredTotal))
        {
            Console.Error.WriteLine($"error: delivered {r.DeliveredTotal} but the log has {r.LogSent} and the sink {r.SinkReceived}");
            return 1;
        }

        return 0;
    }

    internal static object Describe(HarnessOptions o) => new
    {
        o.Mode, o.Rows, DurationSeconds = o.Duration.TotalSeconds, o.Producers, o.Consumers, o.Handlers, o.Prefetch, o.Batch,
        o.Channels, o.DeliveryMode, o.Sender, o.Runs, o.Rate, o.Queue, o.Label, o.WorkerEnvironment,
        Machine = $"{Environment.ProcessorCount} cores, {GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1L << 30)} GiB",
        Date = DateTimeOffset.UtcNow,
    };
}
