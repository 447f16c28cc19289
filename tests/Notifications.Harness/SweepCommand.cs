using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// <c>sweep</c>: one killswitch run per combination of <c>--handlers</c> x <c>--prefetch</c> x <c>--batch</c>
/// (comma-separated lists), then a table and an SVG plot of rate against concurrency.
/// </summary>
internal sealed class SweepCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    public async Task<int> RunAsync(string name)
    {
        var runs = new List<RunResult>();
        var combinations =
            from b in options.Batch
            from q in options.Prefetch
            from h in options.Handlers
            select (h, q, b);
        foreach (var (h, q, b) in combinations)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> sweep point: handlers {h}, prefetch {q}, batch {b}"));
            var run = await new PipelineRun(env, options, db, broker).RunAsync(h, q, b, options.Duration,
                Path.Combine(env.OutputDirectory, name, $"h{h}-q{q}-b{b}"));
            runs.Add(run with { Kind = "sweep" });
            ResultsReport.PrintTable([run]);
        }

        Console.WriteLine("\n==> sweep");
        ResultsReport.PrintTable(runs);
        string svg = Path.Combine(env.OutputDirectory, name + ".svg");
        File.WriteAllText(svg, SweepPlot.Render(runs, $"{options.Sender} sender, {options.Consumers} consumer(s), {options.Producers} producer(s), "
            + $"{options.Duration.TotalSeconds:F0} s windows, {DateTime.UtcNow:yyyy-MM-dd}"));
        Console.WriteLine($"  plot: {svg}");
        ResultsReport.Write(env.OutputDirectory, name, new { options = RunCommand.Describe(options), runs }, runs);
        return RunCommand.Check(runs);
    }
}
