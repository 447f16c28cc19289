using System.Diagnostics;

namespace Notifications.Harness.Live;

/// <summary>
/// The steady flow: <c>--rate</c> live notifications a second to random connected subscribers for <c>--duration</c>, one
/// statement (its own transaction) every 5 ms as the latency mode offers its rows; each row's commit time kept, to set against
/// its arrival at the client. The rows' <paramref name="priority"/>: <c>normal</c>, or <c>urgent</c> behind a bulk backlog
/// (<see cref="LiveUrgentFlow"/>).
/// </summary>
internal sealed class LiveFlow(LiveRows rows, string[] subscribers, int rate, string priority = "normal")
{
    private static readonly TimeSpan Tick = TimeSpan.FromMilliseconds(5);
    private readonly Dictionary<long, long> _committed = [];

    /// <summary>Rows committed so far.</summary>
    public long Inserted
    {
        get
        {
            lock (_committed)
            {
                return _committed.Count;
            }
        }
    }

    /// <summary>Keeps inserted = rate x elapsed until <paramref name="duration"/> has passed.</summary>
    public async Task OfferAsync(TimeSpan duration)
    {
        using var tick = new PeriodicTimer(Tick);
        var clock = Stopwatch.StartNew();
        long offered = 0;
        while (clock.Elapsed < duration && await tick.WaitForNextTickAsync())
        {
            int due = (int)((long)(clock.Elapsed.TotalSeconds * rate) - offered);
            if (due <= 0)
            {
                continue;
            }

            var to = Enumerable.Range(0, due).Select(_ => subscribers[Random.Shared.Next(subscribers.Length)]).ToArray();
            var (ids, at) = await rows.InsertAsync(to, priority);
            lock (_committed)
            {
                Array.ForEach(ids, id => _committed[id] = at);
            }

            offered += due;
        }
    }

    /// <summary>
    /// Commit -> receive (ms, ascending) of the rows committed <paramref name="warmup"/> or more after the first and outside
    /// <paramref name="leaveOut"/> (a storm's window, measured on its own: <see cref="Between"/>), and how many of all were received.
    /// </summary>
    public (List<double> LatenciesMs, long Received) Latencies(LiveArrivals arrivals, TimeSpan warmup, (long From, long To)? leaveOut = null)
    {
        lock (_committed)
        {
            long warm = _committed.Count == 0 ? 0 : _committed.Values.Min() + (long)(warmup.TotalSeconds * Stopwatch.Frequency);
            var (latencies, _, _) = Collect(arrivals, c => c >= warm && !(leaveOut is { } w && c >= w.From && c < w.To));
            return (latencies, _committed.Keys.LongCount(id => arrivals.ArrivalOf(id) is not null));
        }
    }

    /// <summary>Commit -> receive (ms, ascending) of the rows committed in [<paramref name="from"/>, <paramref name="to"/>); how many were committed, how many received.</summary>
    public (List<double> LatenciesMs, long Committed, long Received) Between(LiveArrivals arrivals, long from, long to)
    {
        lock (_committed)
        {
            return Collect(arrivals, c => c >= from && c < to);
        }
    }

    /// <summary>Commit -> receive of every row received (warm-up included), by 5-second window of its commit.</summary>
    public List<WindowRow> Windows(LiveArrivals arrivals)
    {
        lock (_committed)
        {
            if (_committed.Count == 0)
            {
                return [];
            }

            long first = _committed.Values.Min();
            long width = 5 * Stopwatch.Frequency;
            var now = (Wall: DateTimeOffset.UtcNow, Clock: Stopwatch.GetTimestamp());
            return _committed
                .Select(c => (Window: (c.Value - first) / width, At: arrivals.ArrivalOf(c.Key), Committed: c.Value))
                .Where(c => c.At is not null)
                .GroupBy(c => c.Window, c => Math.Max(0, Stopwatch.GetElapsedTime(c.Committed, c.At!.Value).TotalMilliseconds))
                .OrderBy(g => g.Key)
                .Select(g => Row(g.Key * 5, g.Order().ToList(), now.Wall - Stopwatch.GetElapsedTime(first + (g.Key * width), now.Clock)))
                .ToList();
        }
    }

    // Over the rows whose commit passes `included` (under the lock): their latencies (ascending), how many, how many received.
    private (List<double> LatenciesMs, long Committed, long Received) Collect(LiveArrivals arrivals, Func<long, bool> included)
    {
        var latencies = new List<double>();
        long committed = 0;
        foreach (var (id, at) in _committed)
        {
            if (!included(at))
            {
                continue;
            }

            committed++;
            if (arrivals.ArrivalOf(id) is { } arrived)
            {
                // A frame can beat the commit's return to the harness by a few microseconds: that counts as 0.
                latencies.Add(Math.Max(0, Stopwatch.GetElapsedTime(at, arrived).TotalMilliseconds));
            }
        }

        latencies.Sort();
        return (latencies, committed, latencies.Count);
    }

    private static WindowRow Row(long offsetSeconds, List<double> sorted, DateTimeOffset start) =>
        new(start, offsetSeconds, sorted.Count, UrgentFlow.Percentile(sorted, 0.50), UrgentFlow.Percentile(sorted, 0.99), sorted[^1]);
}
