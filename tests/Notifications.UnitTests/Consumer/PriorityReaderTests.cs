using System.Threading.Channels;
using Notifications.Consumer.Pipeline;

namespace Notifications.UnitTests.Consumer;

/// <summary>The standard handlers' reader: what a rate-limit lane let in comes before the work queue's backlog.</summary>
public sealed class PriorityReaderTests
{
    private readonly Channel<int> _first = Channel.CreateUnbounded<int>();
    private readonly Channel<int> _then = Channel.CreateUnbounded<int>();

    [Fact]
    public async Task TryRead_BothHoldItems_TakesTheFirstChannelsBeforeTheBacklog()
    {
        var reader = new PriorityReader<int>(_first.Reader, _then.Reader);
        _then.Writer.TryWrite(1);
        _then.Writer.TryWrite(2);
        _first.Writer.TryWrite(10);

        Assert.True(await reader.WaitToReadAsync());
        Assert.Equal([10, 1, 2], Enumerable.Range(0, 3).Select(_ => reader.TryRead(out int item) ? item : -1));
    }

    [Fact]
    public async Task WaitToReadAsync_BothEmpty_WakesForEither()
    {
        var reader = new PriorityReader<int>(_first.Reader, _then.Reader);
        var waiting = reader.WaitToReadAsync().AsTask();
        Assert.False(waiting.IsCompleted);

        _first.Writer.TryWrite(7);

        Assert.True(await waiting.WaitAsync(TimeSpan.FromSeconds(5)));
        Assert.True(reader.TryRead(out int item));
        Assert.Equal(7, item);
    }

    [Fact]
    public async Task WaitToReadAsync_Cancelled_ThrowsEvenWithItemsWaiting()
    {
        var reader = new PriorityReader<int>(_first.Reader, _then.Reader);
        _then.Writer.TryWrite(1);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reader.WaitToReadAsync(new CancellationToken(canceled: true)).AsTask());
    }
}
