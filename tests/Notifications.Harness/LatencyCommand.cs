using System.Diagnostics;
using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// <c>latency</c>: a steady offered rate (<c>--rate</c> per second, inserted in small statements every
/// 10 ms) for <c>--duration</c>, then drained; the consumers' reports give the latency percentiles from
/// outbox commit (created_at) to SMTP accepted, without the first <c>--latency-warmup</c> (cold start).
/// </summary>
internal sealed class LatencyCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    // Producers poll a near-empty outbox: short pauses, or the poll interval is the latency.
    internal static readonly IReadOnlyDictionary<string, string> EagerPolling = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["Producer__PartialBatchDelay"] = "00:00:00.001",
        ["Producer__IdleDelay"] = "00:00:00.001",
        ["Producer__MaxIdleDelay"] = "00:00:00.005",
    };

    public async Task<int> RunAsync(string name)
    {
        var result = await MeasureAsync(Path.Combine(env.OutputDirectory, name), options.Envelope[0], options.Duration);
        ResultsReport.Write(env.OutputDirectory, name, new { options = RunCommand.Describe(options), latency = result }, [result]);
        return result.DeliveredTotal >= result.Rows ? RunCommand.Check([result]) : 1;
    }

    /// <summary>One steady run at <c>--rate</c> for <paramref name="duration"/> with <paramref name="envelope"/>, drained; its latency figures.</summary>
    public async Task<RunResult> MeasureAsync(string runDirectory, int envelope, TimeSpan duration)
    {
        Directory.CreateDirectory(runDirectory);
        await db.ResetAsync();
        await broker.DeleteQueuesAsync();
        using var sink = options.Sender == "smtp" ? await SmtpSinkProcess.StartAsync(env.SmtpSink, options.SmtpPort) : null;
        using var fleet = new WorkerFleet(env, options, runDirectory);
        (int h, int b) = (options.Handlers[0], options.Batch[0]);
        int q = options.PrefetchFor(options.Prefetch[0], envelope);
        Console.WriteLine($"==> latency: {options.Rate}/s offered for {duration.TotalSeconds:F0} s; {options.Consumers} consumer(s) x {h} handlers, "
            + $"{options.Producers} producer(s) (envelope {envelope}), sender {options.Sender}");
        await fleet.StartConsumersAsync(h, q, runFor: null, options.SmtpPort, options.LatencyWarmup);
        fleet.StartProducers(b, new Dictionary<string, string>(EagerPolling) { ["Producer__EnvelopeSize"] = envelope.ToString(CultureInfo.InvariantCulture) });
        var workers = new CpuMeter(() => fleet.Pids);
        var services = new CpuMeter(() => ProcStat.FindByName("postgres", "beam.smp"));
        var (_, logged0) = await db.CountersAsync();
        long inserted = 0;
        var clock = Stopwatch.StartNew();
        workers.Start();
        services.Start();
        var offering = OfferAsync(clock, duration, () => inserted, n => Interlocked.Add(ref inserted, n));
        var progress = new ProgressLine(0);
        while (!offering.IsCompleted || (await db.CountSentAsync() < Interlocked.Read(ref inserted) && clock.Elapsed < duration + TimeSpan.FromSeconds(30)))
        {
            await Task.Delay(TimeSpan.FromSeconds(1));
            workers.Sample();
            services.Sample();
            var (_, logged) = await db.CountersAsync();
            progress.Print(clock.Elapsed, Interlocked.Read(ref inserted), logged - logged0, await broker.DepthAsync());
        }

        await offering;
        workers.Stop();
        services.Stop();
        double wall = clock.Elapsed.TotalSeconds;
        double load = ProcStat.LoadAverage();
        await fleet.StopProducersAsync();
        await fleet.StopConsumersAsync();
        var reports = fleet.ConsumerReports();
        var result = new RunResult
        {
            Kind = "latency", Label = options.Label, Sender = options.Sender, DeliveryMode = options.DeliveryMode,
            Producers = options.Producers, Consumers = options.Consumers, Handlers = h, Prefetch = q, Batch = b, Envelope = envelope,
            Rows = (int)inserted, Produced = fleet.Published(), Consumed = reports.Sum(r => r.GetProperty("delivered").GetInt64()),
            WindowSeconds = duration.TotalSeconds, DeliveredTotal = reports.Sum(r => r.GetProperty("delivered").GetInt64()),
            SinkReceived = sink?.Messages, LogSent = await db.CountSentAsync(), WallSeconds = wall,
            WorkerCpuSeconds = workers.Seconds, DbBrokerCpuSeconds = services.Seconds,
            LatencyP50Ms = reports.Max(r => r.GetProperty("latencyP50Ms").GetDouble()),
            LatencyP95Ms = reports.Max(r => r.GetProperty("latencyP95Ms").GetDouble()),
            LatencyP99Ms = reports.Max(r => r.GetProperty("latencyP99Ms").GetDouble()),
            LatencyMaxMs = reports.Max(r => r.GetProperty("latencyMaxMs").GetDouble()),
            PeakRssMib = workers.PeakRssMib,
            LoadAverage = load, OfferedRate = options.Rate,
            Hops = HopTable.Merge(fleet.ProducerReports(), reports), Windows = HopTable.MergeWindows(reports),
        };
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"\n  offered {options.Rate}/s for {duration.TotalSeconds:F0} s: {inserted:N0} inserted, {result.DeliveredTotal:N0} delivered; "
            + $"commit -> SMTP accepted p50 {result.LatencyP50Ms:F1} ms, p95 {result.LatencyP95Ms:F1} ms, p99 {result.LatencyP99Ms:F1} ms, max {result.LatencyMaxMs:F1} ms"));
        HopTable.Print(result.Hops, "all");
        HopTable.PrintWindows(result.Windows);
        return result;
    }

    // Keeps inserted = rate x elapsed, one small INSERT every 10 ms (each its own transaction).
    private async Task OfferAsync(Stopwatch clock, TimeSpan duration, Func<long> inserted, Action<int> add)
    {
        using var tick = new PeriodicTimer(TimeSpan.FromMilliseconds(10));
        long number = 1;
        while (clock.Elapsed < duration && await tick.WaitForNextTickAsync())
        {
            int due = (int)((long)(clock.Elapsed.TotalSeconds * options.Rate) - inserted());
            if (due > 0)
            {
                await db.InsertAsync(due, number);
                number += due;
                add(due);
            }
        }
    }
}
