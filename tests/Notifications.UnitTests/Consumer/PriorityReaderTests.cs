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

    [Fact]
    public async Task WaitToReadAsync_WokenByTheBacklogManyTimes_LeavesNoWaitToCancelAndNoneToPileUp()
    {
        var first = new CountingReader(_first.Reader);
        var reader = new PriorityReader<int>(first, _then.Reader);

        for (int i = 0; i < 200; i++)
        {
            var waiting = reader.WaitToReadAsync().AsTask();
            Assert.False(waiting.IsCompleted);
            _then.Writer.TryWrite(i);
            Assert.True(await waiting.WaitAsync(TimeSpan.FromSeconds(5)));
            Assert.True(reader.TryRead(out int item));
            Assert.Equal(i, item);
        }

        // One wait on the empty channel served all 200 turns; cancelling one a turn threw an exception a wake.
        Assert.Equal(0, first.Cancellable);
        Assert.Equal(1, first.Waits);
        Assert.Equal(1, first.Pending);
    }

    [Fact]
    public async Task WaitToReadAsync_EightReadersSharingIt_ReadEveryItemOnceAndKeepAtMostAWaitEach()
    {
        var first = new CountingReader(_first.Reader);
        var reader = new PriorityReader<int>(first, _then.Reader);
        var read = new System.Collections.Concurrent.ConcurrentBag<int>();
        var readers = Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
        {
            while (await reader.WaitToReadAsync())
            {
                while (reader.TryRead(out int item))
                {
                    read.Add(item);
                }
            }
        })).ToArray();

        for (int i = 0; i < 2_000; i++)
        {
            (i % 100 == 0 ? _first.Writer : _then.Writer).TryWrite(i);
            if (i % 10 == 0)
            {
                await Task.Yield();
            }
        }

        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (read.Count < 2_000 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(5);
        }

        // Every reader idle again: the waits on the first channel since its last item, at most one a reader.
        Assert.True(first.Pending <= 8, $"{first.Pending} waits left on the first channel");
        _first.Writer.Complete();
        _then.Writer.Complete();
        await Task.WhenAll(readers).WaitAsync(TimeSpan.FromSeconds(10));

        Assert.Equal(Enumerable.Range(0, 2_000), read.Order());
        Assert.Equal(0, first.Cancellable);
    }

    [Fact]
    public async Task WaitToReadAsync_FirstCompleted_WaitsForTheBacklogWithoutSpinning()
    {
        var first = new CountingReader(_first.Reader);
        var reader = new PriorityReader<int>(first, _then.Reader);
        _first.Writer.Complete();

        var waiting = reader.WaitToReadAsync().AsTask();
        await Task.Delay(100);
        Assert.False(waiting.IsCompleted);
        Assert.True(first.Waits <= 1, $"{first.Waits} waits put on a completed channel");

        _then.Writer.TryWrite(5);
        Assert.True(await waiting.WaitAsync(TimeSpan.FromSeconds(5)));
        _then.Writer.Complete();
        Assert.True(reader.TryRead(out int item));
        Assert.Equal(5, item);
        Assert.False(await reader.WaitToReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(5)));
    }

    // A channel's reader that counts the waits put on it: how many, how many could be cancelled, how many have not ended.
    private sealed class CountingReader(ChannelReader<int> inner) : ChannelReader<int>
    {
        private readonly System.Collections.Concurrent.ConcurrentBag<Task<bool>> _waits = [];
        private int _cancellable;

        public int Waits => _waits.Count;

        public int Cancellable => Volatile.Read(ref _cancellable);

        public int Pending => _waits.Count(w => !w.IsCompleted);

        public override Task Completion => inner.Completion;

        public override bool TryRead(out int item) => inner.TryRead(out item);

        public override bool TryPeek(out int item) => inner.TryPeek(out item);

        public override ValueTask<bool> WaitToReadAsync(CancellationToken cancellationToken = default)
        {
            if (cancellationToken.CanBeCanceled)
            {
                Interlocked.Increment(ref _cancellable);
            }

            var wait = inner.WaitToReadAsync(cancellationToken).AsTask();
            _waits.Add(wait);
            return new ValueTask<bool>(wait);
        }
    }
}
