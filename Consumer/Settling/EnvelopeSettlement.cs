namespace Notifications.Consumer.Settling;

/// <summary>
/// The settling of one envelope, whose items the handlers take one by one. The envelope's delivery is settled once its
/// last item is: acked when every item is done; requeued whole, in its place, when no item is done and none asked to go
/// to the tail or to be parked; otherwise the items that are not done go back without the others (<see cref="EnvelopeOutcome.Back"/>)
/// and the parked ones to a delay queue (<see cref="EnvelopeOutcome.Parked"/>): once an item is settled, nothing brings it
/// back with its envelope. Until then the broker keeps the envelope, so a
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
    private long _parkForTicks = long.MaxValue;

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

    /// <summary>
    /// Settles item <paramref name="index"/> as parked for <paramref name="wait"/>. The envelope's parked items go to the delay
    /// queue as one message, for the shortest of their waits: one whose destination still turns sends away then is parked again.
    /// </summary>
    public Task ParkAsync(int index, TimeSpan wait)
    {
        long seen = Interlocked.Read(ref _parkForTicks);
        while (wait.Ticks < seen)
        {
            long found = Interlocked.CompareExchange(ref _parkForTicks, wait.Ticks, seen);
            if (found == seen)
            {
                break;
            }

            seen = found;
        }

        return SettleAsync(index, ItemSettlement.Park);
    }

    // Called once, after every item's settlement is written (the decrement orders the reads after the writes).
    private EnvelopeOutcome Outcome()
    {
        var back = new List<int>();
        var parked = new List<int>();
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
                case ItemSettlement.Park:
                    parked.Add(i);
                    break;
                default:
                    back.Add(i);
                    break;
            }
        }

        if (back.Count == 0 && parked.Count == 0)
        {
            return EnvelopeOutcome.Ack;
        }

        return anyDone || anyReturn || parked.Count > 0
            ? new EnvelopeOutcome(false, back) { Parked = parked, ParkFor = TimeSpan.FromTicks(Interlocked.Read(ref _parkForTicks)) }
            : EnvelopeOutcome.RequeueWhole;
    }
}

/// <summary>What becomes of an envelope's delivery once every item is settled.</summary>
/// <param name="Requeue">Requeue the delivery whole, in its place (no item was done, none asked for the tail or to be parked).</param>
/// <param name="Back">
/// The items (indexes) that go back to the tail of the work queue as one new message, without the items already done;
/// the delivery is acked once that message and the parked one are confirmed. Empty, and nothing parked, with
/// <paramref name="Requeue"/> false: just ack.
/// </param>
internal sealed record EnvelopeOutcome(bool Requeue, IReadOnlyList<int> Back)
{
    /// <summary>The items (indexes) parked: to a delay queue as one new message, for <see cref="ParkFor"/>.</summary>
    public IReadOnlyList<int> Parked { get; init; } = [];

    /// <summary>How long the parked items wait (the shortest of their waits).</summary>
    public TimeSpan ParkFor { get; init; }

    /// <summary>Some items leave as new messages (back to the work queue's tail, or parked) before the delivery is acked.</summary>
    public bool MovesItems => Back.Count > 0 || Parked.Count > 0;

    public static readonly EnvelopeOutcome Ack = new(false, []);

    public static readonly EnvelopeOutcome RequeueWhole = new(true, []);
}
