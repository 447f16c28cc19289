using System.Collections.Concurrent;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Gateway;

/// <summary>
/// The subscribers connected to this node and their connections. The node's queue is bound to the live exchange under a
/// subscriber while at least one of the subscriber's connections is here (bound before the first one replays its pending
/// rows), so the consumer's live notifications for that subscriber reach this node; each is offered to every connection of
/// its subscriber. After the subscriber's last connection left, the binding stays for <see cref="GatewayOptions.UnbindAfter"/>
/// and is removed in the background (<see cref="ExecuteAsync"/>, one at a time) only if none came back by then: in a
/// reconnect storm the clients that come back find their binding, and no return waits behind the unbinds of all who left
/// (the node's binding changes are broker round trips on one channel, one at a time). What is routed meanwhile finds no
/// connection here and waits in its pending row, which the next connection replays.
/// </summary>
internal sealed partial class Presence(LiveRouter router, IOptions<GatewayOptions> options, TimeProvider time, ILogger<Presence> logger)
    : BackgroundService
{
    private static readonly TimeSpan SweepEvery = TimeSpan.FromSeconds(1);
    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    // Subscribers whose last connection left, in the order they left (so also in the order they fall due).
    private readonly ConcurrentQueue<(string Subscriber, Entry Entry, long LeftAt)> _left = new();
    private int _connectionCount;
    private int _subscriberCount;

    /// <summary>The subscribers with a connection here.</summary>
    public int Subscribers => Volatile.Read(ref _subscriberCount);

    /// <summary>The connections here.</summary>
    public int Connections => Volatile.Read(ref _connectionCount);

    /// <summary>Adds <paramref name="connection"/>; binds the node's queue under its subscriber unless it still is.</summary>
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
                    continue;   // unbound meanwhile: a new entry
                }

                if (!entry.Bound)
                {
                    await router.BindAsync(subscriber, cancellationToken);
                    entry.Bound = true;
                }

                if (entry.Count == 0)
                {
                    Interlocked.Increment(ref _subscriberCount);
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

    /// <summary>Removes <paramref name="connection"/>; after the last of its subscriber, the unbind falls due <see cref="GatewayOptions.UnbindAfter"/> later.</summary>
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
            if (entry.Count == 0)
            {
                Interlocked.Decrement(ref _subscriberCount);
                entry.LeftAt = time.GetTimestamp();
                _left.Enqueue((subscriber, entry, entry.LeftAt));
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
    /// <summary>The subscribers with a connection here now, each with how many (what <c>/presence</c> serves: <see cref="PresenceBoard"/>).</summary>
    public IReadOnlyList<PresenceReading> Snapshot() =>
        _entries.Select(e => new PresenceReading(e.Key, e.Value.Count)).Where(p => p.Connections > 0).ToList();

    public IEnumerable<LiveSession> All() => _entries.Values.SelectMany(e => e.Snapshot());

    /// <summary>The subscribers with a connection here now (a broadcast's candidates: <see cref="LiveBroadcastDelivery"/>).</summary>
    public List<string> Connected() => [.. _entries.Where(e => e.Value.Count > 0).Select(e => e.Key)];

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var tick = new PeriodicTimer(SweepEvery, time);
        while (await tick.WaitForNextTickAsync(stoppingToken))
        {
            await UnbindDueAsync(stoppingToken);
        }
    }

    // Unbinds, one at a time, the subscribers whose last connection left UnbindAfter ago or more and none came back since (one
    // that came back and left again has a later turn of its own). A bind arriving meanwhile waits for one unbind at the most.
    private async Task UnbindDueAsync(CancellationToken stoppingToken)
    {
        var after = options.Value.UnbindAfter;
        while (!stoppingToken.IsCancellationRequested && _left.TryPeek(out var left) && time.GetElapsedTime(left.LeftAt) >= after)
        {
            _left.TryDequeue(out _);
            var entry = left.Entry;
            await entry.Gate.WaitAsync(stoppingToken);
            try
            {
                if (entry.Count > 0 || entry.Removed || entry.LeftAt != left.LeftAt)
                {
                    continue;
                }

                entry.Removed = true;
                _entries.TryRemove(KeyValuePair.Create(left.Subscriber, entry));
                await router.UnbindAsync(left.Subscriber);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // The node's queue goes with its broker connection anyway; a binding left behind routes to no connection here.
                LogUnbindFailed(logger, left.Subscriber, ex.Message);
            }
            finally
            {
                entry.Gate.Release();
            }
        }
    }

    [LoggerMessage(EventId = 7521, Level = LogLevel.Warning, Message = "Gateway: could not unbind {Subscriber} from this node's queue: {Reason}")]
    private static partial void LogUnbindFailed(ILogger logger, string subscriber, string reason);

    private sealed class Entry
    {
        private LiveSession[] _connections = [];

        public SemaphoreSlim Gate { get; } = new(1, 1);

        public bool Removed { get; set; }

        // Whether the node's queue is bound under the subscriber (from the first join until the unbind).
        public bool Bound { get; set; }

        // When the last connection left (TimeProvider timestamp): the unbind's turn that still counts.
        public long LeftAt { get; set; }

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
