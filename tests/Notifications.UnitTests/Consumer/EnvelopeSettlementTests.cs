using Notifications.Consumer;

namespace Notifications.UnitTests.Consumer;

public sealed class EnvelopeSettlementTests
{
    private readonly List<bool> _settled = [];
    private readonly TaskCompletionSource _written = new();

    private EnvelopeSettlement Envelope(int items) => new(items, requeue =>
    {
        _settled.Add(requeue);
        return _written.Task;
    });

    [Fact]
    public void SettleAsync_AllItemsAcked_AcksTheEnvelopeOnceAfterTheLast()
    {
        var envelope = Envelope(3);

        Assert.True(envelope.SettleAsync(0, requeue: false).IsCompleted);
        Assert.True(envelope.SettleAsync(2, requeue: false).IsCompleted);
        Assert.Empty(_settled);
        var last = envelope.SettleAsync(1, requeue: false);

        Assert.Equal([false], _settled);
        Assert.False(last.IsCompleted);
        _written.SetResult();
        Assert.True(last.IsCompleted);
    }

    [Fact]
    public void SettleAsync_OneItemRequeued_RequeuesTheWholeEnvelopeAfterTheLast()
    {
        var envelope = Envelope(3);

        _ = envelope.SettleAsync(0, requeue: false);
        _ = envelope.SettleAsync(1, requeue: true);
        Assert.Empty(_settled);
        _ = envelope.SettleAsync(2, requeue: false);

        Assert.Equal([true], _settled);
    }

    [Fact]
    public void SettleAsync_AnItemSettledTwice_CountsOnce()
    {
        var envelope = Envelope(2);

        _ = envelope.SettleAsync(0, requeue: false);
        _ = envelope.SettleAsync(0, requeue: false);
        _ = envelope.SettleAsync(0, requeue: true);
        Assert.Empty(_settled);
        _ = envelope.SettleAsync(1, requeue: false);

        Assert.Equal([false], _settled);
    }
}
