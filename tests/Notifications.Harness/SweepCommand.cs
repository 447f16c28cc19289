using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// <c>sweep</c>: one killswitch run per combination of <c>--envelope</c> x <c>--handlers</c> x <c>--prefetch</c> x
/// <c>--batch</c> (comma-separated lists), then a table and an SVG plot: of rate and p99 against the envelope size
/// when several are swept, else of rate against concurrency.
/// </summary>
internal sealed class SweepCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    public async Task<int> RunAsync(string name)
    {
        var runs = new List<RunResult>();
        var latencies = new List<RunResult>();
        var combinations =
            from e in options.Envelope
            from b in options.Batch
            from q in options.Prefetch
            from h in options.Handlers
            select (h, q: options.PrefetchFor(q, e), b, e);
        foreach (var (h, q, b, e) in combinations)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> sweep point: envelope {e}, handlers {h}, prefetch {q}, batch {b}"));
            var run = await new PipelineRun(env, options, db, broker).RunAsync(h, q, b, options.Duration,
                Path.Combine(env.OutputDirectory, name, $"e{e}-h{h}-q{q}-b{b}"), envelope: e);
            runs.Add(run with { Kind = "sweep" });
            ResultsReport.PrintTable([run]);
            if (options.SweepLatency is { } latencyFor)
            {
                // The same point at a steady --rate: its p99 from outbox commit to SMTP accepted (a backlog run's
                // latency is the backlog's age).
                var steady = await new LatencyCommand(env, options, db, broker).MeasureAsync(
                    Path.Combine(env.OutputDirectory, name, $"e{e}-h{h}-q{q}-b{b}-latency"), e, latencyFor);
                latencies.Add(steady);
            }
        }

        Console.WriteLine("\n==> sweep");
        ResultsReport.PrintTable(runs);
        string svg = Path.Combine(env.OutputDirectory, name + ".svg");
        string subtitle = $"{options.Sender} sender, {options.DeliveryMode}, {options.Consumers} consumer(s), {options.Producers} producer(s), "
            + $"{options.Duration.TotalSeconds:F0} s windows, {DateTime.UtcNow:yyyy-MM-dd}";
        // Several envelope sizes: rate and p99 against the envelope size; else rate against the handlers.
        File.WriteAllText(svg, options.Envelope.Length > 1 ? EnvelopePlot.Render(runs, latencies, options.Rate, subtitle) : SweepPlot.Render(runs, subtitle));
        Console.WriteLine($"  plot: {svg}");
        ResultsReport.Write(env.OutputDirectory, name, new { options = RunCommand.Describe(options), runs, latencies }, [.. runs, .. latencies]);
        return RunCommand.Check(runs);
    }
}
