namespace Notifications.Consumer;

/// <summary>
/// The settling of one envelope, whose items the handlers take one by one: the envelope's delivery is acked
/// (or, if any item asked for it, requeued whole) once its last item is settled. Until then the broker keeps
/// it, so a crash redelivers the whole envelope and the delivery log sorts out its items: at least once, those
/// logged as sent are skipped and the rest delivered; at most once, those marked are never sent again.
/// </summary>
/// <remarks>
/// An item's settlement returns at once, except the last one's, which returns when the envelope's ack or
/// requeue is written: a handler never waits for the envelope's slowest item. A requeue of an item whose
/// envelope other items already settled sends those again through the log's duplicate check, never past it.
/// </remarks>
/// <param name="items">The number of items in the envelope.</param>
/// <param name="settle">Settles the envelope's delivery: requeue it (true) or ack it (false).</param>
internal sealed class EnvelopeSettlement(int items, Func<bool, Task> settle)
{
    private readonly int[] _settled = new int[items];
    private int _unsettled = items;
    private int _requeue;

    /// <summary>
    /// Settles item <paramref name="index"/>; the last one settles the envelope. Settling an item again does
    /// nothing, as an ack of a tag already acked does nothing for a single message.
    /// </summary>
    public Task SettleAsync(int index, bool requeue)
    {
        if (Interlocked.Exchange(ref _settled[index], 1) == 1)
        {
            return Task.CompletedTask;
        }

        if (requeue)
        {
            Volatile.Write(ref _requeue, 1);
        }

        int left = Interlocked.Decrement(ref _unsettled);
        if (left > 0)
        {
            return Task.CompletedTask;
        }

        return settle(Volatile.Read(ref _requeue) == 1);
    }
}
