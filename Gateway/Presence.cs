using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Notifications.Gateway;

/// <summary>
/// The subscribers connected to this node and their connections. The node's queue is bound to the live exchange under a
/// subscriber while at least one of the subscriber's connections is here (bound before the first one replays its pending
/// rows, unbound after the last one left), so the consumer's live notifications for that subscriber reach this node; each
/// is offered to every connection of its subscriber.
/// </summary>
internal sealed partial class Presence(LiveRouter router, ILogger<Presence> logger)
{
    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private int _connectionCount;

    /// <summary>The subscribers with a connection here.</summary>
    public int Subscribers => _entries.Count;

    /// <summary>The connections here.</summary>
    public int Connections => Volatile.Read(ref _connectionCount);

    /// <summary>Adds <paramref name="connection"/>; the first of its subscriber binds the node's queue under the subscriber.</summary>
    public async Task JoinAsync(string subscriber, LiveSession connection, CancellationToken cancellationToken)
    {
        while (true)
        {
            var entry = _entries.GetOrAdd(subscriber, _ => new Entry());
            await entry.Gate.WaitAsync(cancellationToken);
            try
            {
                if (entry.Removed)
                {
                    continue;   // its last connection left meanwhile: a new entry
                }

                if (entry.Count == 0)
                {
                    await router.BindAsync(subscriber, cancellationToken);
                }

                entry.Add(connection);
                Interlocked.Increment(ref _connectionCount);
                return;
            }
            finally
            {
                entry.Gate.Release();
            }
        }
    }

    /// <summary>Removes <paramref name="connection"/>; the last of its subscriber unbinds the node's queue.</summary>
    public async Task LeaveAsync(string subscriber, LiveSession connection)
    {
        if (!_entries.TryGetValue(subscriber, out var entry))
        {
            return;
        }

        await entry.Gate.WaitAsync();
        try
        {
            if (!entry.Remove(connection))
            {
                return;
            }

            Interlocked.Decrement(ref _connectionCount);
            if (entry.Count > 0)
            {
                return;
            }

            entry.Removed = true;
            _entries.TryRemove(KeyValuePair.Create(subscriber, entry));
            try
            {
                await router.UnbindAsync(subscriber);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // The node's queue goes with its broker connection anyway; a binding left behind routes to no connection here.
                LogUnbindFailed(logger, subscriber, ex.Message);
            }
        }
        finally
        {
            entry.Gate.Release();
        }
    }

    /// <summary>Offers a routed notification to every connection of <paramref name="subscriber"/> here.</summary>
    public void Deliver(string subscriber, LiveFrame frame)
    {
        if (_entries.TryGetValue(subscriber, out var entry))
        {
            foreach (var connection in entry.Snapshot())
            {
                connection.Offer(frame);
            }
        }
    }

    /// <summary>Every connection here (after a broker reconnect: what was routed meanwhile is replayed from the rows).</summary>
    public IEnumerable<LiveSession> All() => _entries.Values.SelectMany(e => e.Snapshot());

    [LoggerMessage(EventId = 7521, Level = LogLevel.Warning, Message = "Gateway: could not unbind {Subscriber} from this node's queue: {Reason}")]
    private static partial void LogUnbindFailed(ILogger logger, string subscriber, string reason);

    private sealed class Entry
    {
        private LiveSession[] _connections = [];

        public SemaphoreSlim Gate { get; } = new(1, 1);

        public bool Removed { get; set; }

        public int Count => _connections.Length;

        // Copy on write (under Gate): Deliver reads without a lock.
        public LiveSession[] Snapshot() => Volatile.Read(ref _connections);

        public void Add(LiveSession connection) => Volatile.Write(ref _connections, [.. _connections, connection]);

        public bool Remove(LiveSession connection)
        {
            var rest = _connections.Where(c => c != connection).ToArray();
            bool removed = rest.Length != _connections.Length;
            Volatile.Write(ref _connections, rest);
            return removed;
        }
    }
}
