using System.Collections.Concurrent;

namespace Notifications.Harness.Live;

/// <summary>
/// Every notification the clients received: the first arrival of each id (<see cref="System.Diagnostics.Stopwatch"/> timestamp),
/// and how many came again after the first (duplicates). A topic broadcast's frames apart, by client: the first arrival of
/// one at each subscriber, and how many came again (a topic's deliveries may carry one id for every subscriber, or one each,
/// so its frames are not counted by id). Thread-safe: every client's loop records here.
/// </summary>
internal sealed class LiveArrivals
{
    private readonly ConcurrentDictionary<long, long> _first = new();
    private readonly ConcurrentDictionary<string, long> _broadcast = new(StringComparer.Ordinal);
    private long _received;
    private long _duplicates;
    private long _broadcastAgain;

    /// <summary>Distinct notifications received.</summary>
    public long Received => Interlocked.Read(ref _received);

    public long Duplicates => Interlocked.Read(ref _duplicates);

    /// <summary>Clients that received a frame of the topic broadcast.</summary>
    public long BroadcastReceived => _broadcast.Count;

    /// <summary>Broadcast frames a client received after its first.</summary>
    public long BroadcastAgain => Interlocked.Read(ref _broadcastAgain);

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

    /// <summary>A frame of the topic broadcast at <paramref name="subscriber"/>'s client.</summary>
    public void RecordBroadcast(string subscriber, long at)
    {
        if (!_broadcast.TryAdd(subscriber, at))
        {
            Interlocked.Increment(ref _broadcastAgain);
        }
    }

    /// <summary>Every id received and its first arrival.</summary>
    public IEnumerable<KeyValuePair<long, long>> All => _first;

    /// <summary>Every subscriber whose client received the topic broadcast, and its first arrival.</summary>
    public IEnumerable<KeyValuePair<string, long>> Broadcast => _broadcast;

    /// <summary>
    /// Adds another process's clients' arrivals (their clock is this one's: CLOCK_MONOTONIC) and duplicates, and their
    /// broadcast's arrivals and frames again.
    /// </summary>
    public void Merge(IEnumerable<(long Id, long At)> arrivals, long duplicates, IEnumerable<(string Subscriber, long At)> broadcast, long broadcastAgain)
    {
        foreach (var (id, at) in arrivals)
        {
            Record(id, at);
        }

        foreach (var (subscriber, at) in broadcast)
        {
            RecordBroadcast(subscriber, at);
        }

        Interlocked.Add(ref _duplicates, duplicates);
        Interlocked.Add(ref _broadcastAgain, broadcastAgain);
    }

    /// <summary>The first arrival of <paramref name="id"/>, or null if it never came.</summary>
    public long? ArrivalOf(long id) => _first.TryGetValue(id, out long at) ? at : null;
}
