using Notifications.Shared.Data;
using Notifications.Shared.Outcomes;

namespace Notifications.Gateway;

/// <summary>
/// The gateway's view of <c>live_pending</c>: a connection's reads and at-most-once marks go to the store as they come; the
/// acks of every connection are coalesced (<see cref="CoalescingBatcher{T}"/>): those that arrive together are deleted in one
/// statement and one commit, instead of one commit per ack on a pool of a few connections. While an endpoint subscribes to
/// <c>notification.acked</c>, each batch's acks are its events too, in the same transaction; else the delete is all.
/// </summary>
internal sealed class LivePendingRows : IAsyncDisposable
{
    // The most acks in one statement (parameters of two arrays on PostgreSQL, one JSON document on SQL Server).
    private const int AckBatch = 500;
    private readonly ILivePendingStore _store;
    private readonly OutcomeSubscriptions _subscriptions;
    private readonly CoalescingBatcher<LiveAck> _acks;

    public LivePendingRows(ILivePendingStore store, OutcomeSubscriptions subscriptions)
    {
        _store = store;
        _subscriptions = subscriptions;
        _acks = new(AckBatchAsync, AckBatch);
    }

    /// <inheritdoc cref="ILivePendingStore.PendingAsync"/>
    public Task<IReadOnlyList<LivePending>> PendingAsync(string subscriber, int max, CancellationToken cancellationToken) =>
        _store.PendingAsync(subscriber, max, cancellationToken);

    /// <inheritdoc cref="ILivePendingStore.MarkSentAsync"/>
    public Task<IReadOnlyList<long>> MarkSentAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken) =>
        _store.MarkSentAsync(ids, cancellationToken);

    /// <summary>The app acked <paramref name="id"/>: true when it was the subscriber's and pending (it is gone now).</summary>
    public Task<bool> AckAsync(string subscriber, long id, CancellationToken cancellationToken) =>
        _acks.SubmitAsync(new LiveAck(subscriber, id), cancellationToken);

    private async Task<IReadOnlySet<LiveAck>> AckBatchAsync(IReadOnlyList<LiveAck> acks, CancellationToken cancellationToken) =>
        await _store.AckAsync(acks, await _subscriptions.WantAsync(OutcomeEventTypes.Acked, cancellationToken), cancellationToken);

    public ValueTask DisposeAsync() => _acks.DisposeAsync();
}
