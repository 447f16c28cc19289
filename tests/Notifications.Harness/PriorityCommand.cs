using System.Diagnostics;
using System.Globalization;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// <c>priority</c>: a bulk backlog of <c>--rows</c> draining at full speed for <c>--duration</c>, alone
/// ("bulk only") and with urgent notifications arriving at <c>--urgent-rate</c> per second ("bulk + urgent"),
/// alternately, <c>--runs</c> pairs. Reports the urgent latency — emails from outbox commit to SMTP accepted and recorded
/// (delivery log updated_at - created_at); with <c>--urgent-channel live</c>, live rows from their commit to a connected app
/// (<see cref="Live.LiveUrgentFlow"/>) — and the bulk throughput of each run, and their ratio.
/// </summary>
internal sealed class PriorityCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    // Urgent rows are offered from this long after the producers start until this long before the window
    // ends, so each one is delivered inside the consumers' window (they stop themselves at its end).
    private static readonly TimeSpan Margin = TimeSpan.FromSeconds(5);

    public async Task<int> RunAsync(string name)
    {
        if (options.Duration <= Margin * 3)
        {
            throw new ArgumentException($"--duration must be longer than {(Margin * 3).TotalSeconds} s in priority mode");
        }

        var bulkOnly = new List<RunResult>();
        var mixed = new List<(RunResult Run, UrgentFlow.Result Urgent)>();
        for (int i = 1; i <= options.Runs; i++)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> pair {i} of {options.Runs}: bulk only"));
            string alone = Path.Combine(env.OutputDirectory, name, $"bulk-only-{i}");
            // Live: the gateway and its apps are there, idle, in the bulk-only run too, so the ratio compares the urgent rows alone.
            await using (await StartUrgentFlowAsync(alone))
            {
                bulkOnly.Add(await RunOnceAsync(alone, alongside: null));
            }

            ResultsReport.PrintTable([bulkOnly[^1]]);
            HopTable.Print(bulkOnly[^1].Hops, "all");

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"==> pair {i} of {options.Runs}: bulk + urgent at {options.UrgentRate}/s"));
            string directory = Path.Combine(env.OutputDirectory, name, $"bulk-urgent-{i}");
            await using var flow = await StartUrgentFlowAsync(directory);
            var run = await RunOnceAsync(directory, flow.OfferAsync);
            var urgent = await flow.MeasureAsync();
            // The consumers' window count includes the urgent deliveries: the bulk rate is without them. Live ones were received
            // by the apps, not the sink: the run's check counts them there.
            run = run with
            {
                Consumed = run.Consumed - urgent.Sent, Label = "bulk + urgent",
                SinkReceived = urgent.Where == UrgentFlow.SmtpAccepted ? run.SinkReceived : run.SinkReceived + urgent.Sent,
            };
            mixed.Add((run, urgent));
            ResultsReport.PrintTable([run]);
            Console.WriteLine(urgent.Describe());
            HopTable.Print(run.Hops, "all", "urgent");
        }

        double bulkOnlyRate = Median(bulkOnly.Select(r => r.RatePerMinute));
        double mixedRate = Median(mixed.Select(m => m.Run.RatePerMinute));
        double ratio = bulkOnlyRate <= 0 ? 0 : mixedRate / bulkOnlyRate;
        var allUrgent = mixed.SelectMany(m => m.Urgent.LatenciesMs).Order().ToList();
        string where = options.UrgentChannel == NotificationChannels.Live ? Live.LiveUrgentFlow.ClientReceived : UrgentFlow.SmtpAccepted;
        Console.WriteLine();
        Console.WriteLine("| run | bulk delivered in window | bulk rate / min | urgent offered / arrived | urgent p50 ms | urgent p99 ms | urgent max ms | load |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var (run, i) in bulkOnly.Select((r, i) => (r, i + 1)))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| bulk only {i} | {run.Consumed:N0} | {run.RatePerMinute:N0} | - | - | - | - | {run.LoadAverage:F1} |"));
        }

        foreach (var ((run, urgent), i) in mixed.Select((m, i) => (m, i + 1)))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| bulk + urgent {i} | {run.Consumed:N0} | {run.RatePerMinute:N0} | {urgent.Offered} / {urgent.Sent} | {urgent.P50:F0} | {urgent.P99:F0} | {urgent.Max:F0} | {run.LoadAverage:F1} |"));
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"\n  bulk rate, medians: with urgent {mixedRate:N0}/min, bulk only {bulkOnlyRate:N0}/min: ratio {ratio:F3} (target >= 0.90)"
            + $"\n  urgent commit -> {where}, all {allUrgent.Count} of the runs: p50 {UrgentFlow.Percentile(allUrgent, 0.50):F0} ms, "
            + $"p99 {UrgentFlow.Percentile(allUrgent, 0.99):F0} ms, max {(allUrgent.Count == 0 ? 0 : allUrgent[^1]):F0} ms (target p99 <= 250 ms)"));
        ResultsReport.Write(env.OutputDirectory, name, new
        {
            options = RunCommand.Describe(options),
            bulkOnly,
            bulkUrgent = mixed.Select(m => new { run = m.Run, urgent = m.Urgent.Summary() }),
            bulkRateRatio = ratio,
            urgentP50Ms = UrgentFlow.Percentile(allUrgent, 0.50),
            urgentP99Ms = UrgentFlow.Percentile(allUrgent, 0.99),
            urgentMaxMs = allUrgent.Count == 0 ? 0 : allUrgent[^1],
        }, [.. bulkOnly, .. mixed.Select(m => m.Run)]);
        bool urgentLost = mixed.Any(m => m.Urgent.Sent < m.Urgent.Offered);
        if (urgentLost)
        {
            Console.Error.WriteLine($"error: some urgent notifications offered inside the window did not arrive ({where}) inside it");
        }

        return urgentLost ? 1 : RunCommand.Check([.. bulkOnly, .. mixed.Select(m => m.Run)]);
    }

    // The urgent rows: emails to the run's SMTP server, or live rows to apps connected to a gateway started for the run.
    private async Task<IUrgentFlow> StartUrgentFlowAsync(string directory)
    {
        if (options.UrgentChannel != NotificationChannels.Live)
        {
            return new UrgentFlow(db, options.UrgentRate, Margin);
        }

        var flow = new Live.LiveUrgentFlow(env, options, new Live.LiveRows(db.DataSource), Margin, directory);
        try
        {
            await flow.StartAsync();
            return flow;
        }
        catch
        {
            await flow.DisposeAsync();
            throw;
        }
    }

    private Task<RunResult> RunOnceAsync(string directory, Func<TimeSpan, Task>? alongside) =>
        new PipelineRun(env, options, db, broker).RunAsync(
            options.Handlers[0], options.PrefetchFor(options.Prefetch[0], options.Envelope[0]), options.Batch[0], options.Duration, directory, seedPriority: "bulk", alongside);

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count == 0 ? 0 : sorted[sorted.Count / 2];
    }
}

/// <summary>Urgent email notifications inserted one at a time at a steady rate, and their latency to the SMTP server.</summary>
internal sealed class UrgentFlow(BenchDatabase db, int rate, TimeSpan margin) : IUrgentFlow
{
    /// <summary>Where an email's latency ends.</summary>
    public const string SmtpAccepted = "SMTP accepted";

    private readonly List<long> _ids = [];

    /// <summary>Inserts rate x elapsed urgent rows, each its own transaction, inside the window less the margins.</summary>
    public async Task OfferAsync(TimeSpan window)
    {
        await Task.Delay(margin);
        var clock = Stopwatch.StartNew();
        var offerFor = window - (margin * 2);
        using var tick = new PeriodicTimer(TimeSpan.FromMilliseconds(5));
        long number = 900_000_000;
        while (clock.Elapsed < offerFor && await tick.WaitForNextTickAsync())
        {
            while (_ids.Count < (long)(clock.Elapsed.TotalSeconds * rate))
            {
                _ids.Add(await db.InsertUrgentAsync(number++));
            }
        }
    }

    public async Task<Result> MeasureAsync() => new(_ids.Count, await db.SentLatenciesMsAsync(_ids), SmtpAccepted);

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    public static double Percentile(IReadOnlyList<double> sorted, double p) =>
        sorted.Count == 0 ? 0 : sorted[Math.Min(sorted.Count - 1, (int)Math.Ceiling(p * sorted.Count) - 1)];

    /// <summary>
    /// Offered urgent rows, the latencies (ms, ascending) of those that arrived, where they arrived, and how many arrived again
    /// (counted where the arrivals are: the apps; not for email).
    /// </summary>
    internal sealed record Result(int Offered, List<double> LatenciesMs, string Where, long? Duplicates = null)
    {
        public int Sent => LatenciesMs.Count;

        public double P50 => Percentile(LatenciesMs, 0.50);

        public double P99 => Percentile(LatenciesMs, 0.99);

        public double Max => LatenciesMs.Count == 0 ? 0 : LatenciesMs[^1];

        public object Summary() => new { Offered, Sent, Duplicates, p50Ms = P50, p99Ms = P99, maxMs = Max };

        public string Describe() => string.Create(CultureInfo.InvariantCulture,
            $"  urgent: {Offered} offered, {Sent} arrived{(Duplicates is { } again ? $", {again} again" : "")}; commit -> {Where} p50 {P50:F0} ms, p99 {P99:F0} ms, max {Max:F0} ms");
    }
}
