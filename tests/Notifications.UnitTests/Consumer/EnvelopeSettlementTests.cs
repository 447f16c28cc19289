using Notifications.Consumer.Settling;

namespace Notifications.UnitTests.Consumer;

public sealed class EnvelopeSettlementTests
{
    private readonly List<EnvelopeOutcome> _settled = [];
    private readonly TaskCompletionSource _written = new();

    private EnvelopeSettlement Envelope(int items) => new(items, outcome =>
    {
        _settled.Add(outcome);
        return _written.Task;
    });

    [Fact]
    public void SettleAsync_AllItemsDone_AcksTheEnvelopeOnceAfterTheLast()
    {
        var envelope = Envelope(3);

        Assert.True(envelope.SettleAsync(0, ItemSettlement.Done).IsCompleted);
        Assert.True(envelope.SettleAsync(2, ItemSettlement.Done).IsCompleted);
        Assert.Empty(_settled);
        var last = envelope.SettleAsync(1, ItemSettlement.Done);

        Assert.Equal([EnvelopeOutcome.Ack], _settled);
        Assert.False(last.IsCompleted);
        _written.SetResult();
        Assert.True(last.IsCompleted);
    }

    [Fact]
    public void SettleAsync_EveryItemRequeued_RequeuesTheWholeEnvelopeInItsPlace()
    {
        var envelope = Envelope(3);

        _ = envelope.SettleAsync(0, ItemSettlement.Requeue);
        _ = envelope.SettleAsync(1, ItemSettlement.Requeue);
        _ = envelope.SettleAsync(2, ItemSettlement.Requeue);

        Assert.Equal([EnvelopeOutcome.RequeueWhole], _settled);
    }

    // Issue 16 (1 and 6): a requeued envelope brought back items that were already sent, copied or moved to their lane.
    [Fact]
    public void SettleAsync_SomeDoneOneRequeued_SendsBackOnlyTheRequeuedItem()
    {
        var envelope = Envelope(3);

        _ = envelope.SettleAsync(0, ItemSettlement.Done);
        _ = envelope.SettleAsync(1, ItemSettlement.Requeue);
        Assert.Empty(_settled);
        _ = envelope.SettleAsync(2, ItemSettlement.Done);

        var outcome = Assert.Single(_settled);
        Assert.False(outcome.Requeue);
        Assert.Equal([1], outcome.Back);
    }

    // A failed probe's item (to the tail) and its siblings turned away by the breaker go back together, as one message.
    [Fact]
    public void SettleAsync_OneReturnedRestRequeued_SendsAllBackToTheTailTogether()
    {
        var envelope = Envelope(3);

        _ = envelope.SettleAsync(1, ItemSettlement.Return);
        _ = envelope.SettleAsync(0, ItemSettlement.Requeue);
        _ = envelope.SettleAsync(2, ItemSettlement.Requeue);

        var outcome = Assert.Single(_settled);
        Assert.False(outcome.Requeue);
        Assert.Equal([0, 1, 2], outcome.Back);
    }

    [Fact]
    public void SettleAsync_AnItemSettledTwice_KeepsItsFirstSettlement()
    {
        var envelope = Envelope(2);

        _ = envelope.SettleAsync(0, ItemSettlement.Done);
        Assert.True(envelope.IsSettled(0));
        _ = envelope.SettleAsync(0, ItemSettlement.Done);
        _ = envelope.SettleAsync(0, ItemSettlement.Requeue);
        Assert.Empty(_settled);
        Assert.False(envelope.IsSettled(1));
        _ = envelope.SettleAsync(1, ItemSettlement.Done);

        Assert.Equal([EnvelopeOutcome.Ack], _settled);
    }

    // Issue 27 (1): items turned away by an open endpoint breaker were requeued with the envelope, which came back at once,
    // over and over (a quorum queue counts each time toward its delivery limit). Parked, they leave it for a delay queue.
    [Fact]
    public void ParkAsync_EveryItemParked_ParkedTogetherNotRequeued()
    {
        var envelope = Envelope(3);

        _ = envelope.ParkAsync(0, TimeSpan.FromSeconds(15));
        _ = envelope.ParkAsync(2, TimeSpan.FromSeconds(9));
        _ = envelope.ParkAsync(1, TimeSpan.FromSeconds(12));

        var outcome = Assert.Single(_settled);
        Assert.False(outcome.Requeue);
        Assert.Empty(outcome.Back);
        Assert.Equal([0, 1, 2], outcome.Parked);
        Assert.Equal(TimeSpan.FromSeconds(9), outcome.ParkFor);
    }

    [Fact]
    public void ParkAsync_SomeDoneSomeParkedOneRequeued_EachToItsPlace()
    {
        var envelope = Envelope(4);

        _ = envelope.SettleAsync(0, ItemSettlement.Done);
        _ = envelope.ParkAsync(1, TimeSpan.FromSeconds(15));
        _ = envelope.SettleAsync(2, ItemSettlement.Requeue);
        _ = envelope.ParkAsync(3, TimeSpan.FromSeconds(15));

        var outcome = Assert.Single(_settled);
        Assert.False(outcome.Requeue);
        Assert.Equal([2], outcome.Back);
        Assert.Equal([1, 3], outcome.Parked);
        Assert.True(outcome.MovesItems);
    }

    // Not requeued whole even with no item done: the whole envelope in its place would bring the parked items back at once.
    [Fact]
    public void ParkAsync_OneParkedRestRequeued_RequeuedOnesToTheTailParkedOneParked()
    {
        var envelope = Envelope(2);

        _ = envelope.SettleAsync(0, ItemSettlement.Requeue);
        _ = envelope.ParkAsync(1, TimeSpan.FromSeconds(15));

        var outcome = Assert.Single(_settled);
        Assert.False(outcome.Requeue);
        Assert.Equal([0], outcome.Back);
        Assert.Equal([1], outcome.Parked);
    }
}
