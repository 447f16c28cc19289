namespace Notifications.Gateway;

/// <summary>
/// The ids a connection sent most recently (at most <c>capacity</c>, the oldest forgotten first): a notification that reaches
/// a connection twice — replayed from its row on connect and routed live the same moment — goes out once.
/// </summary>
internal sealed class SentIds(int capacity)
{
    // Made at the first id: most connections are idle most of the time, many never send.
    private HashSet<long>? _ids;
    private Queue<long>? _order;

    /// <summary>Whether <paramref name="id"/> was sent (and not forgotten since).</summary>
    public bool Contains(long id) => _ids?.Contains(id) == true;

    /// <summary>Adds <paramref name="id"/>; false when it was sent already.</summary>
    public bool Add(long id)
    {
        _ids ??= [];
        _order ??= new Queue<long>();
        if (!_ids.Add(id))
        {
            return false;
        }

        _order.Enqueue(id);
        if (_order.Count > capacity)
        {
            _ids.Remove(_order.Dequeue());
        }

        return true;
    }
}
