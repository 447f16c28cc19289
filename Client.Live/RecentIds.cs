namespace Notifications.Client.Live;

/// <summary>
/// The notification ids a client has lately handed to the app or the app acked, bounded (the oldest forgotten first), so a
/// replayed or second copy of one is not shown again. Thread-safe: the receive loop and the app's acks both use it.
/// </summary>
internal sealed class RecentIds(int capacity)
{
    private readonly Dictionary<string, LinkedListNode<Entry>> _ids = new(StringComparer.Ordinal);
    private readonly LinkedList<Entry> _order = new();
    private readonly Lock _lock = new();

    /// <summary>What a received copy is.</summary>
    public enum Copy
    {
        /// <summary>Not seen lately: hand it to the app.</summary>
        New,

        /// <summary>Handed to the app, not acked yet: the app has it.</summary>
        Held,

        /// <summary>Acked by the app (maybe while disconnected, or a push copy): ack it again, do not show it.</summary>
        Acked,
    }

    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _ids.Count;
            }
        }
    }

    /// <summary>Records a received copy of <paramref name="id"/> and says what it is.</summary>
    public Copy Receive(string id)
    {
        lock (_lock)
        {
            if (_ids.TryGetValue(id, out var node))
            {
                return node.Value.Acked ? Copy.Acked : Copy.Held;
            }

            Add(id, acked: false);
            return Copy.New;
        }
    }

    /// <summary>The app acked <paramref name="id"/> (a copy received here, or one it got another way).</summary>
    public void Ack(string id)
    {
        lock (_lock)
        {
            if (_ids.TryGetValue(id, out var node))
            {
                node.Value = node.Value with { Acked = true };
                return;
            }

            Add(id, acked: true);
        }
    }

    /// <summary>A copy received but never handed to the app (the reader stopped first): the next copy is new.</summary>
    public void Forget(string id)
    {
        lock (_lock)
        {
            if (_ids.Remove(id, out var node))
            {
                _order.Remove(node);
            }
        }
    }

    private void Add(string id, bool acked)
    {
        _ids[id] = _order.AddLast(new Entry(id, acked));
        if (_ids.Count > capacity)
        {
            _ids.Remove(_order.First!.Value.Id);
            _order.RemoveFirst();
        }
    }

    private readonly record struct Entry(string Id, bool Acked);
}
