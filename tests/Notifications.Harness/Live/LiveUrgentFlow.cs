using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;

namespace Notifications.Harness.Live;

/// <summary>
/// <c>priority --urgent-channel live</c>: urgent live rows behind the bulk backlog, to apps connected to a gateway. Before the
/// run, <c>--gateways</c> gateway processes start and <c>--clients</c> clients connect (each its own subscriber, in this
/// process, acking each notification at once); during the window, <c>--urgent-rate</c> urgent live rows a second go to random
/// connected subscribers (<see cref="LiveFlow"/>), each measured from its commit to its arrival at the client.
/// </summary>
internal sealed class LiveUrgentFlow(BenchEnvironment env, HarnessOptions options, LiveRows rows, TimeSpan margin, string runDirectory) : IUrgentFlow
{
    /// <summary>Where a live row's latency ends.</summary>
    public const string ClientReceived = "client received";

    // How long the urgent rows of the window's end may take to arrive once the consumers have stopped (they arrived before it as a rule).
    private static readonly TimeSpan Arriving = TimeSpan.FromSeconds(10);

    private readonly LiveArrivals _arrivals = new();
    private WorkerFleet? _gateways;
    private LiveClients? _clients;
    private LiveFlow? _flow;

    /// <summary>Empties the pending rows, starts the gateways and connects the clients; throws if one does not connect.</summary>
    public async Task StartAsync()
    {
        var live = options.Live;
        Directory.CreateDirectory(runDirectory);
        await rows.ResetAsync();
        string key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
        _gateways = new WorkerFleet(env, options, runDirectory);
        await _gateways.StartGatewaysAsync(live.Gateways, live.GatewayPort, key);
        _clients = new LiveClients(_arrivals, probe: null, live.AckSample);
        var clock = Stopwatch.StartNew();
        var connect = await _clients.ConnectAsync(1, live.Clients, LiveBenchOptions.GatewayUris(live), new LiveTokens(key));
        if (connect.Failed > 0)
        {
            throw new InvalidOperationException($"{connect.Failed:N0} of {live.Clients:N0} clients did not connect: {connect.FirstError}");
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {live.Clients:N0} app clients connected to {live.Gateways} gateway(s) in {clock.Elapsed.TotalSeconds:F1} s"));
        _flow = new LiveFlow(rows, _clients.Subscribers, options.UrgentRate, priority: "urgent");
    }

    public async Task OfferAsync(TimeSpan window)
    {
        await Task.Delay(margin);
        await Flow.OfferAsync(window - (margin * 2));
    }

    public async Task<UrgentFlow.Result> MeasureAsync()
    {
        var waited = Stopwatch.StartNew();
        while (_arrivals.Received < Flow.Inserted && waited.Elapsed < Arriving)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100));
        }

        var (latencies, _) = Flow.Latencies(_arrivals, TimeSpan.Zero);
        return new UrgentFlow.Result((int)Flow.Inserted, latencies, ClientReceived, _arrivals.Duplicates);
    }

    public async ValueTask DisposeAsync()
    {
        if (_clients is not null)
        {
            await _clients.DisposeAsync();
        }

        if (_gateways is not null)
        {
            await _gateways.StopGatewaysAsync();
            _gateways.Dispose();
        }
    }

    private LiveFlow Flow => _flow ?? throw new InvalidOperationException("start the urgent flow first");
}
