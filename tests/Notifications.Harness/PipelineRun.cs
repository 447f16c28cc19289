using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace Notifications.Harness;

/// <summary>
/// The original experiment, here: seed the outbox, start K consumers (killswitch RunFor = the window)
/// and P producers, report each second, and at the end collect the workers' reports and the CPU used. The rows go out
/// through <c>--channel</c>: email to smtp-sink, webhook or push to the receiver process (<see cref="DeliveryTarget"/>).
/// </summary>
internal sealed class PipelineRun(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    // seedPriority: the priority of the seeded rows; alongside: started with the producers and awaited at
    // the end of the window (the priority mode's urgent flow); baseline: the original experiment's consumer
    // (tests/Notifications.Baseline) instead of ours, its producers publishing one notification per message.
    public async Task<RunResult> RunAsync(
        int handlers, int prefetch, int batch, TimeSpan duration, string runDirectory,
        string seedPriority = "normal", Func<TimeSpan, Task>? alongside = null, bool baseline = false, int? envelope = null)
    {
        int envelopeSize = baseline ? 1 : envelope ?? options.Envelope[0];
        Directory.CreateDirectory(runDirectory);
        await db.ResetAsync();
        await broker.DeleteQueuesAsync();
        await using var target = await DeliveryTarget.StartAsync(env, options, runDirectory);
        var seeding = Stopwatch.StartNew();
        await db.SeedAsync(options.Rows, priority: seedPriority, template: options.Template ? options.TemplateName : null, channel: target.Channel);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  seeded {options.Rows:N0} {seedPriority} {options.Channel} {(options.Template ? $"templated ({options.TemplateName}) " : "")}rows by binary COPY in {seeding.Elapsed.TotalSeconds:F1} s"));

        using var fleet = new WorkerFleet(env, options, runDirectory, baseline);
        string sender = target.Channel.IsEmail ? $"sender {options.Sender}" : $"channel {options.Channel} to the receiver on :{options.ReceiverPort}";
        Console.WriteLine($"  starting {options.Consumers} {(baseline ? "ORIGINAL (baseline) " : "")}consumer(s) x {handlers} handlers (prefetch {prefetch}, {sender}){UrgentOwn()}, "
            + $"then {options.Producers} producer(s) (batch {batch}, envelope {envelopeSize}); window {duration.TotalSeconds:F0} s");
        string UrgentOwn() => options.UrgentConsumers > 0 ? $" and {options.UrgentConsumers} of the urgent lane alone" : "";
        await fleet.StartConsumersAsync(handlers, prefetch, duration, options.SmtpPort, channel: target.ConsumerVariables);

        var workers = new CpuMeter(() => fleet.Pids);
        var services = new CpuMeter(() => ProcStat.FindByName("postgres", "beam.smp"));
        var sinkCpu = new CpuMeter(() => target.Pids);
        // The same CPU split by process, for CPU per notification of each (the broker and the database are
        // shared with any other work on the machine: their figures include it).
        var consumerCpu = new CpuMeter(() => fleet.ConsumerPids);
        var producerCpu = new CpuMeter(() => fleet.ProducerPids);
        var brokerCpu = new CpuMeter(() => ProcStat.FindByName("beam.smp"));
        var databaseCpu = new CpuMeter(() => ProcStat.FindByName("postgres"));
        CpuMeter[] meters = [workers, services, sinkCpu, consumerCpu, producerCpu, brokerCpu, databaseCpu];
        var (deleted0, logged0) = await db.CountersAsync();
        long sink0 = await target.ReceivedAsync();

        fleet.StartProducers(batch, new Dictionary<string, string> { ["Producer__EnvelopeSize"] = envelopeSize.ToString(CultureInfo.InvariantCulture) });
        var clock = Stopwatch.StartNew();
        var beside = alongside?.Invoke(duration) ?? Task.CompletedTask;
        Array.ForEach(meters, m => m.Start());
        var progress = new ProgressLine(options.Rows);
        double? ninety = null;
        long deliveredInWindow = 0;
        while (clock.Elapsed < duration)
        {
            await Task.Delay(TimeSpan.FromSeconds(1) - TimeSpan.FromTicks(clock.Elapsed.Ticks % TimeSpan.TicksPerSecond));
            Array.ForEach(meters, m => m.Sample());
            var (deleted, logged) = await db.CountersAsync();
            long delivered = target.Counts ? await target.ReceivedAsync() - sink0 : logged - logged0;
            deliveredInWindow = delivered;
            ninety ??= delivered >= options.Rows * 0.9 ? clock.Elapsed.TotalSeconds : null;
            progress.Print(clock.Elapsed, deleted - deleted0, delivered, await broker.DepthAsync());
        }

        Array.ForEach(meters, m => m.Stop());
        await beside;
        double wall = clock.Elapsed.TotalSeconds;
        double load = ProcStat.LoadAverage();
        await fleet.StopProducersAsync();
        await fleet.WaitConsumersAsync(TimeSpan.FromSeconds(60));
        var reports = fleet.ConsumerReports();
        if (await target.EventsReceivedAsync() is { } eventsReceived)
        {
            // Events queue in the outbox behind the run's backlog (claimed in id order): made in the window, mostly sent after it.
            Console.WriteLine($"  outcome events: {await db.CountOutcomeEventsAsync():N0} delivered events made, {eventsReceived:N0} accepted by the events receiver so far");
        }

        if (reports.Count != options.ConsumerProcesses)
        {
            throw new InvalidOperationException($"only {reports.Count} of {options.ConsumerProcesses} consumers wrote a report; see {runDirectory}");
        }

        return new RunResult
        {
            Kind = baseline ? "baseline" : "run",
            Label = options.Label,
            Sender = target.Channel.IsEmail ? options.Sender : options.Channel,
            Channel = options.Channel,
            DeliveryMode = baseline ? "original" : options.DeliveryMode,
            Producers = options.Producers,
            Consumers = options.Consumers,
            Handlers = handlers,
            Prefetch = prefetch,
            Batch = batch,
            Envelope = envelopeSize,
            Rows = options.Rows,
            Produced = fleet.Published(),
            // An urgent lane's own consumer stopped before its window closed (--urgent-consumers) counts all it delivered.
            Consumed = reports.Sum(r => r.GetProperty("windowDelivered") is { ValueKind: JsonValueKind.Number } window ? window.GetInt64() : r.GetProperty("delivered").GetInt64()),
            WindowSeconds = reports.Where(r => r.GetProperty("windowSeconds").ValueKind == JsonValueKind.Number).Max(r => r.GetProperty("windowSeconds").GetDouble()),
            DeliveredTotal = reports.Sum(r => r.GetProperty("delivered").GetInt64()),
            SinkReceived = target.Counts ? await target.ReceivedAsync() - sink0 : null,
            Receipts = await target.ReceiptsAsync(),
            LogSent = await db.CountSentAsync(),
            WallSeconds = wall,
            WorkerCpuSeconds = workers.Seconds,
            DbBrokerCpuSeconds = services.Seconds,
            SinkCpuSeconds = sinkCpu.Seconds,
            Cpu = new CpuSplit(deliveredInWindow, consumerCpu.Seconds, producerCpu.Seconds, brokerCpu.Seconds, databaseCpu.Seconds, sinkCpu.Seconds),
            LatencyP50Ms = reports.Max(r => r.GetProperty("latencyP50Ms").GetDouble()),
            LatencyP95Ms = reports.Max(r => r.GetProperty("latencyP95Ms").GetDouble()),
            LatencyP99Ms = reports.Max(r => r.GetProperty("latencyP99Ms").GetDouble()),
            LatencyMaxMs = reports.Max(r => r.GetProperty("latencyMaxMs").GetDouble()),
            PeakRssMib = workers.PeakRssMib,
            LoadAverage = load,
            TimeTo90PercentSeconds = ninety,
            Hops = HopTable.Merge(fleet.ProducerReports(), reports),
        };
    }
}
