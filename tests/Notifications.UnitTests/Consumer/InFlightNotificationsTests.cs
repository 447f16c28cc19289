using Notifications.Consumer.Pipeline;

namespace Notifications.UnitTests.Consumer;

public sealed class InFlightNotificationsTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    // Issue 16 (1): two copies of one id in two handlers at once both passed the delivery log's check and both sent.
    [Fact]
    public async Task EnterAsync_SameIdHeld_WaitsUntilTheHolderLeaves()
    {
        var inFlight = new InFlightNotifications();
        var first = await inFlight.EnterAsync(7, CancellationToken.None);

        var second = inFlight.EnterAsync(7, CancellationToken.None).AsTask();
        var other = await inFlight.EnterAsync(8, CancellationToken.None).AsTask().WaitAsync(Patience);
        Assert.False(second.IsCompleted);

        first.Dispose();
        (await second.WaitAsync(Patience)).Dispose();
        other.Dispose();
        (await inFlight.EnterAsync(7, CancellationToken.None).AsTask().WaitAsync(Patience)).Dispose();
    }

    [Fact]
    public async Task EnterAsync_Cancelled_StopsWaiting()
    {
        var inFlight = new InFlightNotifications();
        using var first = await inFlight.EnterAsync(7, CancellationToken.None);
        using var cancel = new CancellationTokenSource();

        var second = inFlight.EnterAsync(7, cancel.Token).AsTask();
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => second);
    }
}
