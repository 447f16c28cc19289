using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Outcomes;

namespace Notifications.Gateway;

/// <summary>
/// The gateway's view of <c>live_pending</c>: a connection's reads and at-most-once marks go to the store as they come; the
/// acks of every connection are coalesced (<see cref="CoalescingBatcher{T}"/>): those that arrive together are deleted in one
/// statement and one commit, instead of one commit per ack on a pool of a few connections. While an endpoint subscribes to
/// <c>notification.acked</c>, each batch's acks are its events too, in the same transaction; else the delete is all.
/// </summary>
internal sealed partial class LivePendingRows : IAsyncDisposable
{
    // The most acks in one statement (parameters of two arrays on PostgreSQL, one JSON document on SQL Server).
    private const int AckBatch = 500;
    private readonly ILivePendingStore _store;
    private readonly ILiveBroadcastStore _broadcasts;
    private readonly OutcomeSubscriptions _subscriptions;
    private readonly CoalescingBatcher<LiveAck> _acks;
    private readonly int _cap;
    private readonly ILogger _logger;

    public LivePendingRows(
        ILivePendingStore store, ILiveBroadcastStore broadcasts, OutcomeSubscriptions subscriptions, IOptions<LiveCapOptions> cap,
        ILogger<LivePendingRows> logger)
    {
        _store = store;
        _broadcasts = broadcasts;
        _subscriptions = subscriptions;
        _cap = cap.Value.MaxPendingPerSubscriber;
        _logger = logger;
        _acks = new(AckBatchAsync, AckBatch);
    }

    /// <summary>
    /// What the subscriber's app receives on connecting, at most <paramref name="max"/>: its pending rows
    /// (<see cref="ILivePendingStore.PendingAsync"/>), then its topics' broadcasts not acked yet, of those the newest
    /// <see cref="LiveCapOptions.MaxPendingPerSubscriber"/> (<see cref="ILiveBroadcastStore.PendingAsync"/>: the older ones expire
    /// for it, logged; the at-most-once ones marked already), each kind oldest first.
    /// </summary>
    public async Task<IReadOnlyList<LivePending>> PendingAsync(string subscriber, int max, CancellationToken cancellationToken)
    {
        var rows = await _store.PendingAsync(subscriber, max, cancellationToken);
        if (rows.Count >= max)
        {
            return rows;
        }

        var broadcasts = await _broadcasts.PendingAsync(subscriber, max - rows.Count, _cap, cancellationToken);
        if (broadcasts.Capped > 0)
        {
            LogBroadcastsCapped(_logger, subscriber, _cap, broadcasts.Capped);
        }

        return broadcasts.Rows.Count == 0 ? rows : [.. rows, .. broadcasts.Rows];
    }

    /// <inheritdoc cref="ILivePendingStore.MarkSentAsync"/>
    public Task<IReadOnlyList<long>> MarkSentAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken) =>
        _store.MarkSentAsync(ids, cancellationToken);

    /// <summary>The app acked <paramref name="id"/>: true when it was the subscriber's and pending (it is gone now).</summary>
    public Task<bool> AckAsync(string subscriber, long id, CancellationToken cancellationToken) =>
        _acks.SubmitAsync(new LiveAck(subscriber, id), cancellationToken);

    // The acks of pending rows; those that matched none may be of broadcasts to the subscriber's topics (a second statement,
    // only when there are such).
    private async Task<IReadOnlySet<LiveAck>> AckBatchAsync(IReadOnlyList<LiveAck> acks, CancellationToken cancellationToken)
    {
        var gone = await _store.AckAsync(acks, await _subscriptions.WantAsync(OutcomeEventTypes.Acked, cancellationToken), cancellationToken);
        var others = acks.Where(a => !gone.Contains(a)).Distinct().ToList();
        if (others.Count == 0)
        {
            return gone;
        }

        var broadcasts = await _broadcasts.AckAsync(others, cancellationToken);
        return broadcasts.Count == 0 ? gone : gone.Union(broadcasts).ToHashSet();
    }

    public ValueTask DisposeAsync() => _acks.DisposeAsync();

    [LoggerMessage(EventId = 7542, Level = LogLevel.Warning, Message = "Subscriber {Subscriber} has more than {Cap} broadcasts unacked: its {Expired} oldest expired, not sent again")]
    private static partial void LogBroadcastsCapped(ILogger logger, string subscriber, int cap, int expired);
}
