using System.Collections.Concurrent;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// What a receiver got, per id (a webhook-id, a push notification's id): every request, and the accepted ones (verified and
/// answered 2xx, what the sender takes as delivered). Keeps one small entry per id and nothing of the request, so a
/// benchmark's million requests cost a dictionary, not a log; <see cref="Snapshot"/> is what the harness reads for its loss
/// and duplicate check. Thread-safe.
/// </summary>
internal sealed class ReceiptCounter
{
    private readonly ConcurrentDictionary<string, Tally> byId = new(StringComparer.Ordinal);
    private long requests;
    private long accepted;
    private long distinct;
    private long duplicates;
    private long refused;
    private long unidentified;

    /// <summary>Counts one request carrying <paramref name="id"/> (null: none could be read), accepted or not.</summary>
    public void Record(string? id, bool isAccepted)
    {
        Interlocked.Increment(ref requests);
        Interlocked.Increment(ref isAccepted ? ref accepted : ref refused);
        if (id is null)
        {
            Interlocked.Increment(ref unidentified);
            return;
        }

        var tally = byId.GetOrAdd(id, static _ => new Tally());
        Interlocked.Increment(ref tally.All);
        if (isAccepted)
        {
            // The first acceptance of an id is a delivery; every later one is a duplicate the sender should not have made.
            Interlocked.Increment(ref Interlocked.Increment(ref tally.Accepted) == 1 ? ref distinct : ref duplicates);
        }
    }

    /// <summary>Requests that carried <paramref name="id"/>, accepted or not.</summary>
    public int CountFor(string id) => byId.TryGetValue(id, out var tally) ? Volatile.Read(ref tally.All) : 0;

    /// <summary>Accepted requests that carried <paramref name="id"/>.</summary>
    public int AcceptedCountFor(string id) => byId.TryGetValue(id, out var tally) ? Volatile.Read(ref tally.Accepted) : 0;

    public ReceiptCounts Snapshot() => new(
        Interlocked.Read(ref requests), Interlocked.Read(ref accepted), Interlocked.Read(ref distinct),
        Interlocked.Read(ref duplicates), Interlocked.Read(ref refused), Interlocked.Read(ref unidentified));

    private sealed class Tally
    {
        public int All;
        public int Accepted;
    }
}
