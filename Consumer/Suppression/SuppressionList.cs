using Notifications.Consumer.Channels;
using Notifications.Consumer.Pipeline;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// The handlers' view of the suppression list: whether a notification may go (the in-memory copy, no round trip),
/// the delivery-log record of one that may not (coalesced), and the entries this process adds (written, and in its copy at once).
/// </summary>
internal sealed class SuppressionList : IAsyncDisposable
{
    private static readonly IReadOnlySet<SentNotification> None = new HashSet<SentNotification>();
    private readonly ISuppressionStore _store;
    private readonly SuppressionCache _cache;
    private readonly SuppressionMetrics _metrics;
    private readonly CoalescingBatcher<SentNotification> _recordSuppressed;

    public SuppressionList(ISuppressionStore store, SuppressionCache cache, ConsumerOptions options, SuppressionMetrics metrics)
    {
        _store = store;
        _cache = cache;
        _metrics = metrics;
        _recordSuppressed = new(async (batch, ct) => { await store.RecordSuppressedAsync(batch, ct); return None; },
            options.LogBatchSize, spanName: "delivery log record suppressed");
    }

    /// <summary>The key that stops <paramref name="message"/> (its address or domain, in scope for its lane), or null if it may go.</summary>
    public async ValueTask<string?> MatchAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        if (!_cache.IsLoaded)
        {
            await _cache.WaitLoadedAsync(cancellationToken);
        }

        return _cache.Match(message.Recipient!, message.IsBulk);
    }

    /// <summary>Records the notification as 'suppressed' in the delivery log (a row it has already stays).</summary>
    public async Task RecordSuppressedAsync(NotificationMessage message, int attempt, CancellationToken cancellationToken)
    {
        await _recordSuppressed.SubmitAsync(new SentNotification(message.Id, message.CreatedAt == default ? null : message.CreatedAt, attempt), cancellationToken);
        _metrics.Suppressed();
    }

    /// <summary>Suppresses a recipient a send said is gone for good (a hard bounce, an unregistered push token), for every notification.</summary>
    public async Task AddGoneAsync(GoneRecipient gone, CancellationToken cancellationToken)
    {
        string key = SuppressionKeys.ForRecipient(gone.Key);
        await _store.AddAsync(key, gone.Reason, SuppressionReasons.AllScope, gone.Detail, cancellationToken);
        _cache.Add(key, bulkOnly: false);
        _metrics.Added(gone.Reason);
    }

    /// <summary>Suppresses <paramref name="recipient"/> for bulk mail (a one-click unsubscribe); true if the entry is new or revived.</summary>
    public async Task<bool> AddUnsubscribeAsync(string recipient, string detail, CancellationToken cancellationToken)
    {
        string key = SuppressionKeys.ForRecipient(recipient);
        bool added = await _store.AddAsync(key, SuppressionReasons.Unsubscribed, SuppressionReasons.BulkScope, detail, cancellationToken);
        _cache.Add(key, bulkOnly: true);
        _metrics.Added(SuppressionReasons.Unsubscribed);
        return added;
    }

    public ValueTask DisposeAsync() => _recordSuppressed.DisposeAsync();
}
