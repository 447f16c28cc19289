using System.Diagnostics;
using System.Globalization;

namespace Notifications.Harness.Live;

/// <summary>
/// The reconnect storm of a live run (<c>--storm-within</c>), while the steady flow goes on: every client of the harness and
/// of its client processes dropped at the same moment and connected again within the window (<see cref="LiveStorm"/>), the
/// gateways watched from a little before the drop until <see cref="Tail"/> after the last client is back
/// (<see cref="LiveGatewayWatch"/>). The rows committed in its <see cref="Window"/> are measured apart from the steady flow's.
/// </summary>
internal sealed class LiveStormPhase(LiveBenchOptions live, WorkerFleet fleet, LiveClients clients, LiveClientFleet others)
{
    // The client processes look for the storm's file every 200 ms: the drop is set this far ahead, so all drop together.
    private static readonly TimeSpan Lead = TimeSpan.FromSeconds(1);
    // Watched this long after the last client is back: a gateway that falls over from the storm's work counts.
    private static readonly TimeSpan Tail = TimeSpan.FromSeconds(2);
    // The storm's rows: from a second before the drop (frames in flight when the sockets went) to a second after all are back.
    private static readonly long Margin = Stopwatch.Frequency;

    private long _dropAt;
    private List<LiveStormTimes> _times = [];
    private LiveGatewayHealth? _health;

    /// <summary>The rows of the storm: committed from a second before the drop to a second after the last client was back.</summary>
    public (long From, long To) Window => (_dropAt - Margin, _dropAt + (long)(AllBackSeconds * Stopwatch.Frequency) + Margin);

    private double AllBackSeconds => _times.SelectMany(t => t.BackMs).DefaultIfEmpty(0).Max() / 1000;

    /// <summary>Waits until <paramref name="flowClock"/> (the flow's) reaches <c>--storm-at</c>, then storms.</summary>
    public async Task RunAsync(Stopwatch flowClock, TimeSpan duration)
    {
        var within = live.StormWithin!.Value;
        var wait = live.StormDropAt(duration) - Lead - flowClock.Elapsed;
        await Task.Delay(wait > TimeSpan.Zero ? wait : TimeSpan.Zero);
        await using var watch = new LiveGatewayWatch(fleet, live.GatewayPort);
        watch.Start();
        _dropAt = Stopwatch.GetTimestamp() + (long)(Lead.TotalSeconds * Stopwatch.Frequency);
        var theirs = others.StormAsync(_dropAt, within);
        var ours = await new LiveStorm(clients).RunAsync(_dropAt, within);
        _times = [ours, .. await theirs];
        await Task.Delay(Tail);
        _health = await watch.StopAsync();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  storm: {_times.Sum(t => t.BackMs.Count + t.Failed):N0} clients dropped at once; "
            + $"{_times.Sum(t => t.BackMs.Count):N0} back {AllBackSeconds:F1} s after the drop, {_times.Sum(t => t.Retries):N0} retries, {_times.Sum(t => t.Failed):N0} never back; "
            + $"gateways {(_health.Up ? "up" : "NOT up")} ({_health.Answered:N0} of {_health.Polls:N0} health polls answered, {_health.Ready:N0} ready)"));
    }

    /// <summary>The storm's figures, once every arrival is in <paramref name="arrivals"/>.</summary>
    public LiveStormResult Result(LiveFlow flow, LiveArrivals arrivals)
    {
        var (from, to) = Window;
        var (latencies, committed, received) = flow.Between(arrivals, from, to);
        var upgrades = _times.SelectMany(t => t.UpgradeMs).Order().ToList();
        return new LiveStormResult
        {
            WithinSeconds = live.StormWithin!.Value.TotalSeconds, Dropped = _times.Sum(t => t.BackMs.Count + t.Failed), Back = _times.Sum(t => t.BackMs.Count),
            AllBackSeconds = AllBackSeconds, Retries = _times.Sum(t => t.Retries), NeverBack = _times.Sum(t => t.Failed),
            FirstError = _times.Select(t => t.FirstError).FirstOrDefault(e => e is not null),
            UpgradeP50Ms = UrgentFlow.Percentile(upgrades, 0.50), UpgradeP99Ms = UrgentFlow.Percentile(upgrades, 0.99), UpgradeMaxMs = upgrades.Count == 0 ? 0 : upgrades[^1],
            Health = _health!, Inserted = committed, Received = received,
            P50Ms = UrgentFlow.Percentile(latencies, 0.50), P99Ms = UrgentFlow.Percentile(latencies, 0.99), MaxMs = latencies.Count == 0 ? 0 : latencies[^1],
        };
    }
}
