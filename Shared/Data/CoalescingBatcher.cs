using System.Diagnostics;
using System.Threading.Channels;

namespace Notifications.Shared.Data;

/// <summary>
/// Group commit for concurrent handlers: each submits one item and awaits its answer, while the items
/// that arrive together run as one batched statement. Under load batches grow on their own; at low
/// load an item waits for no timer, only for the statement in flight. Used by the consumer (delivery log, dead letters,
/// suppression, live rows) and the gateway (live acks).
/// </summary>
/// <typeparam name="T">The item, e.g. a notification id.</typeparam>
public sealed class CoalescingBatcher<T> : IAsyncDisposable
    where T : notnull
{
    private readonly Channel<Pending> _queue = Channel.CreateUnbounded<Pending>(new UnboundedChannelOptions { SingleReader = false });
    private readonly Func<IReadOnlyList<T>, CancellationToken, Task<IReadOnlySet<T>>> _execute;
    private readonly int _maxBatch;
    private readonly ActivitySource? _tracing;
    private readonly string? _spanName;
    private readonly bool _exclusive;
    private readonly Task[] _loops;

    /// <param name="execute">Runs one batch; returns the items for which the answer is true.</param>
    /// <param name="maxBatch">The most items in one batch.</param>
    /// <param name="concurrency">Batches that may run at once (pipelining the round trips).</param>
    /// <param name="tracing">The worker's source for each batch's span; null: no span.</param>
    /// <param name="spanName">The name of each batch's span, linked to its callers' spans.</param>
    /// <param name="exclusive">
    /// True when the answer names what the batch claimed for one owner each (a mark inserted once per id): of several callers
    /// with the same item in a batch only the first gets true. False: they all get the same answer.
    /// </param>
    public CoalescingBatcher(
        Func<IReadOnlyList<T>, CancellationToken, Task<IReadOnlySet<T>>> execute, int maxBatch, int concurrency = 2, ActivitySource? tracing = null, string? spanName = null,
        bool exclusive = false)
    {
        _execute = execute;
        _maxBatch = maxBatch;
        _tracing = tracing;
        _spanName = spanName;
        _exclusive = exclusive;
        _loops = Enumerable.Range(0, concurrency).Select(_ => Task.Run(RunAsync)).ToArray();
    }

    /// <summary>Queues <paramref name="item"/> and returns whether its batch's answer contains it.</summary>
    public Task<bool> SubmitAsync(T item, CancellationToken cancellationToken)
    {
        var pending = new Pending(item, new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously),
            Activity.Current?.Context ?? default);
        if (!_queue.Writer.TryWrite(pending))
        {
            throw new ObjectDisposedException(nameof(CoalescingBatcher<T>));
        }

        return pending.Result.Task.WaitAsync(cancellationToken);
    }

    /// <summary>Lets queued items finish, then stops.</summary>
    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await Task.WhenAll(_loops);
    }

    private async Task RunAsync()
    {
        var batch = new List<Pending>(_maxBatch);
        var items = new List<T>(_maxBatch);
        while (await _queue.Reader.WaitToReadAsync())
        {
            while (batch.Count < _maxBatch && _queue.Reader.TryRead(out var pending))
            {
                batch.Add(pending);
                items.Add(pending.Item);
            }

            await ExecuteAsync(batch, items);
            batch.Clear();
            items.Clear();
        }
    }

    private async Task ExecuteAsync(List<Pending> batch, List<T> items)
    {
        if (batch.Count == 0)
        {
            return;
        }

        // The statement serves many notifications, so it belongs to none of their traces: its own, linked to theirs.
        using var activity = StartSpan(batch);
        try
        {
            // The statement is not cancelled by any one caller: the others still want their answers.
            var answer = await _execute(items, CancellationToken.None);
            var given = _exclusive ? new HashSet<T>() : null;
            foreach (var pending in batch)
            {
                pending.Result.TrySetResult(answer.Contains(pending.Item) && (given is null || given.Add(pending.Item)));
            }
        }
        catch (Exception ex)
        {
            foreach (var pending in batch)
            {
                pending.Result.TrySetException(ex);
            }
        }
    }

    // A trace of its own (its database span under it), linked to the span of every caller it answers.
    private Activity? StartSpan(List<Pending> batch)
    {
        if (_tracing is null || _spanName is null || !_tracing.HasListeners())
        {
            return null;
        }

        var links = new List<ActivityLink>(batch.Count);
        foreach (var pending in batch)
        {
            if (pending.Caller != default)
            {
                links.Add(new ActivityLink(pending.Caller));
            }
        }

        var activity = _tracing.StartActivity(_spanName, ActivityKind.Internal, parentContext: default, links: links);
        activity?.SetTag("notifications.batch.size", batch.Count);
        return activity;
    }

    private sealed record Pending(T Item, TaskCompletionSource<bool> Result, ActivityContext Caller);
}
