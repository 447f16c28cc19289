using System.Threading.Channels;
using RabbitMQ.Client;

namespace Notifications.Consumer.Settling;

/// <summary>
/// Settles the deliveries of one channel in groups (see <see cref="AckPlan"/>). Every ack and requeue of
/// the channel goes through its single flush loop, so a requeue is always sent before a multiple-ack
/// that would otherwise cover it.
/// </summary>
/// <remarks>
/// Delivery tags are only valid on the channel incarnation that issued them; after a connection
/// recovery the broker has already requeued everything unacked and numbers anew. Each delivery carries
/// the generation it arrived in, and settlements of an older generation are dropped instead of being
/// sent with a tag the new channel does not know (which would close it) or, worse, that it gave to another
/// message. A new incarnation is noticed two ways, whichever comes first: the connection's shutdown event
/// (<see cref="Reset"/>), and a delivery tag that does not grow (<see cref="Track"/>). The client may run the
/// shutdown event after the recovered channel's first deliveries; that late <see cref="Reset"/> must not
/// start yet another generation, or the first window of the new incarnation would never be acked (and its
/// channel, its prefetch full, would get nothing more).
/// </remarks>
internal sealed class AckBatcher : IAsyncDisposable
{
    private static readonly TimeSpan WriteTimeout = TimeSpan.FromSeconds(10);
    private readonly IChannel _channel;
    private readonly Lock _gate = new();
    private readonly SortedSet<ulong> _inProgress = [];
    private readonly Channel<bool> _signal = Channel.CreateBounded<bool>(new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite });
    private readonly Task _loop;
    private List<Settlement> _finished = [];
    private long _generation;
    private ulong _lastTag;
    private int _recoveriesSeenByTags;
    private bool _disposed;

    private readonly Action<Exception> _onFailure;

    /// <param name="channel">The channel whose deliveries this settles.</param>
    /// <param name="onFailure">Told of each flush that could not be written (to log it).</param>
    public AckBatcher(IChannel channel, Action<Exception> onFailure)
    {
        _channel = channel;
        _onFailure = onFailure;
        _loop = Task.Run(FlushLoopAsync);
    }

    /// <summary>Registers a new delivery; returns the generation to settle it under.</summary>
    public long Track(ulong deliveryTag)
    {
        lock (_gate)
        {
            // Tags only grow on one incarnation: a smaller one means the channel was recovered. The shutdown
            // event's Reset for this recovery, if it has not run yet, is then already done.
            if (deliveryTag <= _lastTag)
            {
                StartNewGenerationLocked();
                _recoveriesSeenByTags++;
            }

            _lastTag = deliveryTag;
            _inProgress.Add(deliveryTag);
            return _generation;
        }
    }

    /// <summary>The connection was lost: every delivery so far will be redelivered by the broker.</summary>
    public void Reset()
    {
        lock (_gate)
        {
            if (_recoveriesSeenByTags > 0)
            {
                // Late: the recovered channel's deliveries came first and their tags already started the
                // new generation. Starting another would orphan them.
                _recoveriesSeenByTags--;
                return;
            }

            StartNewGenerationLocked();
            _lastTag = 0;
        }
    }

    /// <summary>
    /// True while the delivery is this channel's to settle: not settled yet, its channel open and not recovered since it arrived.
    /// Otherwise the broker has it back (or will redeliver it), and a copy published for it now would be a second one.
    /// </summary>
    public bool Holds(ulong deliveryTag, long generation)
    {
        lock (_gate)
        {
            return !_disposed && generation == _generation && _inProgress.Contains(deliveryTag) && _channel.IsOpen;
        }
    }

    /// <summary>Acks the delivery; completes once the frame is written (or dropped as stale).</summary>
    public Task AckAsync(ulong deliveryTag, long generation) => Settle(deliveryTag, generation, requeue: false);

    /// <summary>Returns the delivery to the queue (basic.nack requeue=true).</summary>
    public Task RequeueAsync(ulong deliveryTag, long generation) => Settle(deliveryTag, generation, requeue: true);

    public async ValueTask DisposeAsync()
    {
        lock (_gate)
        {
            _disposed = true;
        }

        _signal.Writer.TryComplete();
        await _loop;
        lock (_gate)
        {
            // Settled after the last flush: nothing will write them any more; the channel's close returns them.
            _finished.ForEach(s => s.Done.TrySetResult());
            _finished = [];
        }
    }

    private Task Settle(ulong deliveryTag, long generation, bool requeue)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            // A disposed batcher (its channel replaced) has no flush loop: a handler must not wait for it.
            if (_disposed || generation != _generation || !_inProgress.Remove(deliveryTag))
            {
                return Task.CompletedTask;
            }

            _finished.Add(new Settlement(deliveryTag, requeue, generation, done));
        }

        _signal.Writer.TryWrite(true);
        return done.Task;
    }

    private void StartNewGenerationLocked()
    {
        _generation++;
        _inProgress.Clear();
        foreach (var stale in _finished)
        {
            stale.Done.TrySetResult();
        }

        _finished = [];
    }

    private async Task FlushLoopAsync()
    {
        while (await _signal.Reader.WaitToReadAsync())
        {
            _signal.Reader.TryRead(out _);
            List<Settlement> batch;
            ulong? lowest;
            long generation;
            lock (_gate)
            {
                batch = _finished;
                _finished = [];
                lowest = _inProgress.Count > 0 ? _inProgress.Min : null;
                generation = _generation;
            }

            await FlushAsync(batch, lowest, generation);
        }
    }

    private async Task FlushAsync(List<Settlement> all, ulong? lowest, long generation)
    {
        // A batch taken before a new incarnation began holds tags the new channel does not know.
        var batch = all.Where(s => s.Generation == generation).ToList();
        all.Where(s => s.Generation != generation).ToList().ForEach(s => s.Done.TrySetResult());
        if (batch.Count == 0)
        {
            return;
        }

        // A write to a connection whose peer went silent can block until the heartbeat gives up on it;
        // the timeout keeps one dead connection from stalling every handler waiting for its ack.
        using var timeout = new CancellationTokenSource(WriteTimeout);
        try
        {
            foreach (var requeue in batch.Where(s => s.Requeue))
            {
                await _channel.BasicNackAsync(requeue.Tag, multiple: false, requeue: true, timeout.Token);
            }

            var plan = AckPlan.Create(batch.Where(s => !s.Requeue).Select(s => s.Tag).ToList(), lowest);
            if (plan.MultipleUpTo is { } upTo)
            {
                await _channel.BasicAckAsync(upTo, multiple: true, timeout.Token);
            }

            foreach (ulong tag in plan.Singles)
            {
                await _channel.BasicAckAsync(tag, multiple: false, timeout.Token);
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The channel or connection is gone, so the broker requeues what was not acked and the
            // delivery log recognises the copies. An ack is never confirmed by the broker either way:
            // the handler has nothing to do about it, so the settlement still completes.
            _onFailure(ex);
        }

        batch.ForEach(s => s.Done.TrySetResult());
    }

    private sealed record Settlement(ulong Tag, bool Requeue, long Generation, TaskCompletionSource Done);
}
