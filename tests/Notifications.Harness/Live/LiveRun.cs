using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;

namespace Notifications.Harness.Live;

/// <summary>
/// One live run on emptied tables and queues: consumers, producers (polling eagerly, as the latency mode's) and the gateways
/// start; the clients connect (timed) and sit idle while the gateways' memory is read; then the steady flow for
/// <c>--duration</c>, drained; then the broadcast. CPU is metered over the flow and over the broadcast apart.
/// </summary>
internal sealed class LiveRun(BenchEnvironment env, HarnessOptions options, BenchBroker broker, LiveRows rows)
{
    private const string ProducerReady = "Connected to RabbitMQ";
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan Drain = TimeSpan.FromSeconds(30);

    public async Task<LiveResult> RunAsync(string runDirectory)
    {
        var live = options.Live;
        Directory.CreateDirectory(runDirectory);
        await rows.ResetAsync();
        await broker.DeleteQueuesAsync();
        using var fleet = new WorkerFleet(env, options, runDirectory);
        string key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
        await StartAsync(fleet, key);
        await Task.Delay(Settle);
        double rssBefore = GatewayRssMib(fleet);
        var arrivals = new LiveArrivals();
        await using var probe = new LiveAckProbe(rows);
        await using var clients = new LiveClients(arrivals, probe, live.AckSample);
        var gateways = Enumerable.Range(0, live.Gateways)
            .Select(i => new Uri(string.Create(CultureInfo.InvariantCulture, $"ws://127.0.0.1:{live.GatewayPort + i}/live"))).ToList();
        var connect = await clients.ConnectAsync(live.Clients, gateways, new LiveTokens(key));
        string failed = connect.Failed > 0 ? string.Create(CultureInfo.InvariantCulture, $"; {connect.Failed:N0} failed: {connect.FirstError}") : "";
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  connected {connect.Connected:N0} of {live.Clients:N0} clients in {connect.Seconds:F1} s (upgrade p50 {connect.P50Ms:F1} ms, p99 {connect.P99Ms:F1} ms, max {connect.MaxMs:F0} ms){failed}"));
        await Task.Delay(Settle);
        double rssAfter = GatewayRssMib(fleet);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  gateways' RSS {rssBefore:F0} MiB -> {rssAfter:F0} MiB idle: {(rssAfter - rssBefore) * 1024 / Math.Max(1, connect.Connected):F1} KB per connection"));

        double loadBefore = ProcStat.LoadAverage();
        var meters = new LiveMeters(fleet);
        var flow = new LiveFlow(rows, clients.Subscribers, options.Rate);
        probe.Start();
        probe.Enabled = true;
        meters.Start();
        var clock = Stopwatch.StartNew();
        await WatchAsync(flow, arrivals, meters, clock);
        var (latencies, received) = flow.Latencies(arrivals, options.LatencyWarmup);
        var steadyCpu = meters.Stop(received);
        double steadySeconds = clock.Elapsed.TotalSeconds;
        probe.Enabled = false;

        meters.Start();
        long beforeBroadcast = arrivals.Received;
        var broadcast = await new LiveBroadcast(rows, arrivals).RunAsync(clients.Subscribers);
        var broadcastCpu = meters.Stop(arrivals.Received - beforeBroadcast);
        var peakRss = PeakRss(fleet);
        double loadAfter = ProcStat.LoadAverage();
        var gone = probe.GoneMs();
        await Task.Delay(TimeSpan.FromSeconds(1));   // the broadcast's last acks land
        long pendingLeft = await rows.PendingCountAsync();
        var result = new LiveResult
        {
            Clients = live.Clients, Gateways = live.Gateways, Connect = connect, GatewayRssBeforeMib = rssBefore, GatewayRssAfterMib = rssAfter,
            OfferedRate = options.Rate, SteadySeconds = steadySeconds, Inserted = flow.Inserted, Received = received, Duplicates = arrivals.Duplicates,
            Measured = latencies.Count, P50Ms = UrgentFlow.Percentile(latencies, 0.50), P99Ms = UrgentFlow.Percentile(latencies, 0.99),
            MaxMs = latencies.Count == 0 ? 0 : latencies[^1],
            AckSamples = gone.Count, AckGoneP50Ms = UrgentFlow.Percentile(gone, 0.50), AckGoneP99Ms = UrgentFlow.Percentile(gone, 0.99),
            AckGoneMaxMs = gone.Count == 0 ? 0 : gone[^1], AckNotGone = probe.NotGone, SteadyCpu = steadyCpu,
            BroadcastExpected = broadcast.Expected, BroadcastReceived = broadcast.Received, BroadcastInsertSeconds = broadcast.InsertSeconds,
            Broadcast50Seconds = broadcast.S50, Broadcast90Seconds = broadcast.S90, Broadcast100Seconds = broadcast.S100, BroadcastCpu = broadcastCpu,
            ClosedByGateway = clients.ClosedByGateway, Unreadable = clients.Unreadable, PendingLeft = pendingLeft,
            PeakRssMib = peakRss, LoadBefore = loadBefore, LoadAfter = loadAfter,
        };
        await clients.DisposeAsync();
        await fleet.StopProducersAsync();
        await fleet.StopConsumersAsync();
        await fleet.StopGatewaysAsync();
        return result;
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

    // Offers the flow, printing progress each second, then waits for the last arrivals (at most Drain).
    private async Task WatchAsync(LiveFlow flow, LiveArrivals arrivals, LiveMeters meters, Stopwatch clock)
    {
        var offering = flow.OfferAsync(options.Duration);
        var progress = new ProgressLine(0);
        while (!offering.IsCompleted || (arrivals.Received < flow.Inserted && clock.Elapsed < options.Duration + Drain))
        {
            await Task.Delay(TimeSpan.FromSeconds(1));
            meters.Sample();
            progress.Print(clock.Elapsed, flow.Inserted, arrivals.Received, await broker.DepthAsync());
        }

        await offering;
    }

    private static double GatewayRssMib(WorkerFleet fleet) => fleet.GatewayPids.Sum(pid => ProcStat.RssMib(pid) ?? 0);

    private static Dictionary<string, double> PeakRss(WorkerFleet fleet) => fleet.Producers.Concat(fleet.Consumers).Concat(fleet.Gateways)
        .Where(w => !w.HasExited)
        .ToDictionary(w => w.Name, w => ProcStat.PeakRssMib(w.Id) ?? 0, StringComparer.Ordinal);
}
