using System.Diagnostics;
using System.Globalization;

namespace Notifications.Harness.FanOut;

/// <summary>
/// <c>fanout</c>: seeds the audience registry once (binary COPY), then <c>--runs</c> times one topic row to all of it
/// (<see cref="FanOutTopicRun"/>) or, with <c>--single</c>, a steady flow of rows to single subscribers
/// (<see cref="FanOutSingleRun"/>); prints every run and the median, writes JSON and CSV. Non-zero when a delivery was lost,
/// refused, or a topic missed its devices.
/// </summary>
internal sealed class FanOutCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    public async Task<int> RunAsync(string name)
    {
        var fanOut = options.FanOut;
        var registry = new FanOutRegistry(db.DataSource);
        var channel = new BenchChannel(options.Channel, PushProviders: options.PushProviders);
        var seeding = Stopwatch.StartNew();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"==> seeding {fanOut.Subscribers:N0} subscribers x {fanOut.DevicesPerSubscriber} {options.Channel} contact points, all in topic {FanOutBenchOptions.TopicName}"));
        await registry.ClearAsync();
        await registry.SeedAsync(fanOut.Subscribers, fanOut.DevicesPerSubscriber, channel);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  seeded by binary COPY in {seeding.Elapsed.TotalSeconds:F1} s"));

        var runs = new List<FanOutResult>();
        for (int i = 1; i <= options.Runs; i++)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> {(fanOut.Single ? "single" : "topic")} run {i} of {options.Runs}"));
            string directory = Path.Combine(env.OutputDirectory, name, $"run-{i}");
            runs.Add(fanOut.Single
                ? await new FanOutSingleRun(env, options, db, broker, registry).RunAsync(directory)
                : await new FanOutTopicRun(env, options, db, broker, registry).RunAsync(directory));
            FanOutReport.Print([runs[^1]]);
        }

        var median = Median(runs);
        Console.WriteLine($"\n==> {runs.Count} run(s); the median is run {runs.IndexOf(median) + 1}");
        FanOutReport.Print(runs);
        FanOutReport.Write(env.OutputDirectory, name, new { options = RunCommand.Describe(options), fanOut, runs, median }, runs);
        return Check(runs);
    }

    /// <summary>The median run: by the time to 100 % (a topic; a run that never got there is the slowest), by p99 (single).</summary>
    internal static FanOutResult Median(IReadOnlyList<FanOutResult> runs) => runs
        .OrderBy(r => r.Kind == "single" ? r.LastDeviceP99Ms ?? double.MaxValue : r.Seconds100 ?? double.MaxValue)
        .ElementAt(runs.Count / 2);

    /// <summary>Non-zero when a run lost a delivery, the receiver refused a request, or the producers published fewer than expected.</summary>
    internal static int Check(IReadOnlyList<FanOutResult> runs)
    {
        foreach (var r in runs)
        {
            string? error = r switch
            {
                { Lost: > 0 } => $"lost {r.Lost:N0} of {r.Expected:N0} deliveries (received {r.Received:N0}; the producers published {r.Published:N0})",
                { Refused: > 0 } => $"the push server refused {r.Refused:N0} requests (token or payload): see its log",
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
}
