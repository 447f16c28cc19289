using System.Collections.Concurrent;

namespace Notifications.Harness.Live;

/// <summary>
/// Every notification the clients received: the first arrival of each id (<see cref="System.Diagnostics.Stopwatch"/> timestamp),
/// and how many came again after the first (duplicates). Thread-safe: every client's loop records here.
/// </summary>
internal sealed class LiveArrivals
{
    private readonly ConcurrentDictionary<long, long> _first = new();
    private long _received;
    private long _duplicates;

    /// <summary>Distinct notifications received.</summary>
    public long Received => Interlocked.Read(ref _received);

    public long Duplicates => Interlocked.Read(ref _duplicates);

    public void Record(long id, long at)
    {
        if (_first.TryAdd(id, at))
        {
            Interlocked.Increment(ref _received);
        }
        else
        {
            Interlocked.Increment(ref _duplicates);
        }
    }

    /// <summary>Every id received and its first arrival.</summary>
    public IEnumerable<KeyValuePair<long, long>> All => _first;

    /// <summary>Adds another process's clients' arrivals (their clock is this one's: CLOCK_MONOTONIC) and duplicates.</summary>
    public void Merge(IEnumerable<(long Id, long At)> arrivals, long duplicates)
    {
        foreach (var (id, at) in arrivals)
        {
            Record(id, at);
        }

        Interlocked.Add(ref _duplicates, duplicates);
    }

    /// <summary>The first arrival of <paramref name="id"/>, or null if it never came.</summary>
    public long? ArrivalOf(long id) => _first.TryGetValue(id, out long at) ? at : null;
}
