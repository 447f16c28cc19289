namespace Notifications.Consumer.Settling;

/// <summary>
/// The settling of one envelope, whose items the handlers take one by one. The envelope's delivery is settled once its
/// last item is: acked when every item is done; requeued whole, in its place, when no item is done and none asked to go
/// to the tail; otherwise the items that are not done go back without the others (<see cref="EnvelopeOutcome.Back"/>):
/// once an item is settled, nothing brings it back with its envelope. Until then the broker keeps the envelope, so a
/// crash redelivers it whole and the delivery log sorts out its items: at least once, those logged as sent are skipped
/// and the rest delivered; at most once, those marked are never sent again.
/// </summary>
/// <remarks>
/// An item's settlement returns at once, except the last one's, which returns when the envelope is settled: a handler
/// never waits for the envelope's slowest item.
/// </remarks>
/// <param name="items">The number of items in the envelope.</param>
/// <param name="settle">Settles the envelope's delivery as the outcome says.</param>
internal sealed class EnvelopeSettlement(int items, Func<EnvelopeOutcome, Task> settle)
{
    private const int Unsettled = 0;
    private readonly int[] _settled = new int[items];
    private int _unsettled = items;

    /// <summary>True once item <paramref name="index"/> is settled (its later settlements do nothing).</summary>
    public bool IsSettled(int index) => Volatile.Read(ref _settled[index]) != Unsettled;

    /// <summary>
    /// Settles item <paramref name="index"/>; the last one settles the envelope. Settling an item again does nothing,
    /// as an ack of a tag already acked does nothing for a single message.
    /// </summary>
    public Task SettleAsync(int index, ItemSettlement how)
    {
        if (Interlocked.CompareExchange(ref _settled[index], (int)how + 1, Unsettled) != Unsettled)
        {
            return Task.CompletedTask;
        }

        return Interlocked.Decrement(ref _unsettled) > 0 ? Task.CompletedTask : settle(Outcome());
    }

    // Called once, after every item's settlement is written (the decrement orders the reads after the writes).
    private EnvelopeOutcome Outcome()
    {
        var back = new List<int>();
        bool anyDone = false, anyReturn = false;
        for (int i = 0; i < _settled.Length; i++)
        {
            switch ((ItemSettlement)(Volatile.Read(ref _settled[i]) - 1))
            {
                case ItemSettlement.Done:
                    anyDone = true;
                    break;
                case ItemSettlement.Return:
                    anyReturn = true;
                    back.Add(i);
                    break;
                default:
                    back.Add(i);
                    break;
            }
        }

        if (back.Count == 0)
        {
            return EnvelopeOutcome.Ack;
        }

        return anyDone || anyReturn ? new EnvelopeOutcome(false, back) : EnvelopeOutcome.RequeueWhole;
    }
}

/// <summary>What becomes of an envelope's delivery once every item is settled.</summary>
/// <param name="Requeue">Requeue the delivery whole, in its place (no item was done, none asked for the tail).</param>
/// <param name="Back">
/// The items (indexes) that go back to the tail of the work queue as one new message, without the items already done;
/// the delivery is acked once that message is confirmed. Empty with <paramref name="Requeue"/> false: just ack.
/// </param>
internal sealed record EnvelopeOutcome(bool Requeue, IReadOnlyList<int> Back)
{
    public static readonly EnvelopeOutcome Ack = new(false, []);

    public static readonly EnvelopeOutcome RequeueWhole = new(true, []);
}
