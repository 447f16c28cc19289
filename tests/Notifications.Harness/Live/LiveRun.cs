using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using Notifications.Harness.FanOut;

namespace Notifications.Harness.Live;

/// <summary>
/// One live run on emptied tables and queues (for a topic broadcast, the registry seeded with every client's subscriber):
/// consumers, producers (polling eagerly, as the latency mode's) and the gateways start; the clients connect (timed) and sit idle while the gateways' memory is read; then the steady flow for
/// <c>--duration</c>, drained; then the broadcast. CPU is metered over the flow and over the broadcast apart. The figures that
/// need every arrival are taken once the client processes (if any) have handed theirs over.
/// </summary>
internal sealed class LiveRun(BenchEnvironment env, HarnessOptions options, BenchBroker broker, LiveRows rows, FanOutRegistry registry)
{
    private const string ProducerReady = "Connected to RabbitMQ";
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan Drain = TimeSpan.FromSeconds(30);

    public async Task<LiveResult> RunAsync(string runDirectory)
    {
        var live = options.Live;
        Directory.CreateDirectory(runDirectory);
        await rows.ResetAsync();
        var broadcast = new LiveBroadcast(rows, registry, live.Broadcast);
        await broadcast.SeedAsync(live.Clients);
        await broker.DeleteQueuesAsync();
        using var fleet = new WorkerFleet(env, options, runDirectory);
        string key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
        await StartAsync(fleet, key);
        await Task.Delay(Settle);
        double rssBefore = GatewayRssMib(fleet);
        var arrivals = new LiveArrivals();
        await using var probe = new LiveAckProbe(rows);
        await using var clients = new LiveClients(arrivals, probe, live.AckSample);
        using var others = new LiveClientFleet(options, runDirectory, key);
        var (connect, subscribers) = await ConnectAsync(clients, others, key);
        await Task.Delay(Settle);
        double rssAfter = GatewayRssMib(fleet);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  gateways' RSS {rssBefore:F0} MiB -> {rssAfter:F0} MiB idle: {(rssAfter - rssBefore) * 1024 / Math.Max(1, connect.Connected):F1} KB per connection"));

        double loadBefore = ProcStat.LoadAverage();
        var meters = new LiveMeters(fleet, () => others.Pids.Append(Environment.ProcessId));
        var flow = new LiveFlow(rows, subscribers, options.Rate);
        var storm = live.StormWithin is null ? null : new LiveStormPhase(live, fleet, clients, others);
        long Received() => arrivals.Received + others.Received();
        long TopicReceived() => arrivals.BroadcastReceived + others.BroadcastReceived();
        probe.Start();
        probe.Enabled = true;
        meters.Start();
        var clock = Stopwatch.StartNew();
        await WatchAsync(flow, storm, Received, meters, clock);
        var steadyCpu = meters.Stop(0);
        double steadySeconds = clock.Elapsed.TotalSeconds;
        probe.Enabled = false;

        meters.Start();
        await broadcast.RunAsync(subscribers, connect.Connected, Received, TopicReceived);
        var broadcastCpu = meters.Stop(0);
        var peakRss = PeakRss(fleet);
        double loadAfter = ProcStat.LoadAverage();
        await Task.Delay(TimeSpan.FromSeconds(1));   // the broadcast's last acks land
        long pendingLeft = await rows.PendingCountAsync();
        long closed = clients.ClosedByGateway;
        await clients.DisposeAsync();
        closed += await others.StopAsync(arrivals);
        await fleet.StopProducersAsync();
        await fleet.StopConsumersAsync();
        await fleet.StopGatewaysAsync();

        var (latencies, received) = flow.Latencies(arrivals, options.LatencyWarmup, storm?.Window);
        var windows = flow.Windows(arrivals);
        HopTable.PrintWindows(windows);
        var (broadcastReceived, s50, s90, s100) = broadcast.Milestones(arrivals);
        if (arrivals.BroadcastAgain > 0)
        {
            Console.WriteLine($"  broadcast: {arrivals.BroadcastAgain:N0} frames of the topic came again to a client that had one");
        }

        var gone = probe.GoneMs();
        return new LiveResult
        {
            Clients = live.Clients, Gateways = live.Gateways, Connect = connect, GatewayRssBeforeMib = rssBefore, GatewayRssAfterMib = rssAfter,
            OfferedRate = options.Rate, SteadySeconds = steadySeconds, Inserted = flow.Inserted, Received = received, Duplicates = arrivals.Duplicates,
            Measured = latencies.Count, P50Ms = UrgentFlow.Percentile(latencies, 0.50), P99Ms = UrgentFlow.Percentile(latencies, 0.99),
            MaxMs = latencies.Count == 0 ? 0 : latencies[^1], Windows = windows,
            AckSamples = gone.Count, AckGoneP50Ms = UrgentFlow.Percentile(gone, 0.50), AckGoneP99Ms = UrgentFlow.Percentile(gone, 0.99),
            AckGoneMaxMs = gone.Count == 0 ? 0 : gone[^1], AckNotGone = probe.NotGone, SteadyCpu = steadyCpu with { Received = received },
            BroadcastExpected = broadcast.Expected, BroadcastReceived = broadcastReceived, BroadcastInsertSeconds = broadcast.InsertSeconds,
            Broadcast50Seconds = s50, Broadcast90Seconds = s90, Broadcast100Seconds = s100, BroadcastCpu = broadcastCpu with { Received = broadcastReceived },
            BroadcastAgain = arrivals.BroadcastAgain,
            ClosedByGateway = closed, Unreadable = clients.Unreadable, PendingLeft = pendingLeft,
            PeakRssMib = peakRss, LoadBefore = loadBefore, LoadAfter = loadAfter, Storm = storm?.Result(flow, arrivals),
        };
    }

    private async Task StartAsync(WorkerFleet fleet, string key)
    {
        var live = options.Live;
        Console.WriteLine($"  starting {options.Consumers} consumer(s) x {options.Handlers[0]} handlers, {options.Producers} producer(s), {live.Gateways} gateway(s) on port {live.GatewayPort}+");
        await fleet.StartConsumersAsync(options.Handlers[0], options.PrefetchFor(options.Prefetch[0], options.Envelope[0]), runFor: null, options.SmtpPort);
        fleet.StartProducers(options.Batch[0], new Dictionary<string, string>(LatencyCommand.EagerPolling)
        {
            ["Producer__EnvelopeSize"] = options.Envelope[0].ToString(CultureInfo.InvariantCulture),
        }, ProducerReady);
        await fleet.WaitProducersReadyAsync(TimeSpan.FromSeconds(60));
        await fleet.StartGatewaysAsync(live.Gateways, live.GatewayPort, key);
    }

    // The harness's own share of the clients, and the rest in client processes (all at once); every connected subscriber.
    private async Task<(LiveConnectResult Connect, string[] Subscribers)> ConnectAsync(LiveClients clients, LiveClientFleet others, string key)
    {
        var live = options.Live;
        int own = Math.Min(live.Clients, LiveBenchOptions.ClientsPerProcess(ProcStat.OpenFilesLimit()));
        var clock = Stopwatch.StartNew();
        others.Start(own + 1, live.Clients, own);
        var times = new List<LiveConnectTimes> { await clients.ConnectAsync(1, own, LiveBenchOptions.GatewayUris(live), new LiveTokens(key)) };
        times.AddRange(await others.WaitConnectedAsync());
        var connect = LiveConnectResult.Of(times.SelectMany(t => t.UpgradeMs), times.Sum(t => t.Failed), clock.Elapsed.TotalSeconds, times.Select(t => t.FirstError).FirstOrDefault(e => e is not null));
        string failed = connect.Failed > 0 ? string.Create(CultureInfo.InvariantCulture, $"; {connect.Failed:N0} failed: {connect.FirstError}") : "";
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  connected {connect.Connected:N0} of {live.Clients:N0} clients ({(others.Any ? $"{own:N0} here, the rest in client processes" : "all here")}) in {connect.Seconds:F1} s "
            + $"(upgrade p50 {connect.P50Ms:F1} ms, p99 {connect.P99Ms:F1} ms, max {connect.MaxMs:F0} ms){failed}"));
        // The client processes' failures are not named one by one: their subscribers stay in, and what is sent to them is lost.
        return (connect, [.. clients.Subscribers, .. Enumerable.Range(own + 1, live.Clients - own).Select(LiveBenchOptions.Subscriber)]);
    }

    // Offers the flow (and storms in it, if asked), printing progress each second, then waits for the last arrivals (at most Drain).
    private async Task WatchAsync(LiveFlow flow, LiveStormPhase? storm, Func<long> received, LiveMeters meters, Stopwatch clock)
    {
        var offering = flow.OfferAsync(options.Duration);
        var storming = storm?.RunAsync(clock, options.Duration) ?? Task.CompletedTask;
        var progress = new ProgressLine(0);
        while (!offering.IsCompleted || !storming.IsCompleted || (received() < flow.Inserted && clock.Elapsed < options.Duration + Drain))
        {
            await Task.Delay(TimeSpan.FromSeconds(1));
            meters.Sample();
            progress.Print(clock.Elapsed, flow.Inserted, received(), await broker.DepthAsync());
        }

        await offering;
        await storming;
    }

    private static double GatewayRssMib(WorkerFleet fleet) => fleet.GatewayPids.Sum(pid => ProcStat.RssMib(pid) ?? 0);

    private static Dictionary<string, double> PeakRss(WorkerFleet fleet) => fleet.Producers.Concat(fleet.Consumers).Concat(fleet.Gateways)
        .Where(w => !w.HasExited)
        .ToDictionary(w => w.Name, w => ProcStat.PeakRssMib(w.Id) ?? 0, StringComparer.Ordinal);
}
