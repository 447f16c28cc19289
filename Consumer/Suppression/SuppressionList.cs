using Notifications.Consumer.Channels;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// The handlers' view of the suppression list: whether a notification may go (the copy in memory; a key it does not hold
/// looked up in the table, concurrent handlers' lookups as one statement), the delivery-log record of one that may not
/// (coalesced), and the entries this process adds (written, and in its copy at once).
/// </summary>
internal sealed class SuppressionList : IAsyncDisposable
{
    private static readonly IReadOnlySet<SentNotification> None = new HashSet<SentNotification>();
    private readonly ISuppressionStore _store;
    private readonly SuppressionCache _cache;
    private readonly SuppressionMetrics _metrics;
    private readonly CoalescingBatcher<SentNotification> _recordSuppressed;
    private readonly CoalescingBatcher<SuppressionQuestion> _lookUp;

    public SuppressionList(ISuppressionStore store, SuppressionCache cache, ConsumerOptions options, SuppressionMetrics metrics)
    {
        _store = store;
        _cache = cache;
        _metrics = metrics;
        _recordSuppressed = new(async (batch, ct) => { await store.RecordSuppressedAsync(batch, ct); return None; },
            options.LogBatchSize, tracing: ConsumerTracing.Source, spanName: "delivery log record suppressed");
        _lookUp = new(LookUpAsync, options.LogBatchSize, tracing: ConsumerTracing.Source, spanName: "suppression look up");
    }

    /// <summary>The key that stops <paramref name="message"/> (its address or domain, in scope for its lane), or null if it may go.</summary>
    public ValueTask<string?> MatchAsync(NotificationMessage message, CancellationToken cancellationToken) =>
        MatchAsync(message.Recipient!, message.IsBulk, cancellationToken);

    /// <summary>The key that stops a notification to <paramref name="recipient"/> of the bulk lane or another, or null if it may go.</summary>
    public async ValueTask<string?> MatchAsync(string recipient, bool bulk, CancellationToken cancellationToken)
    {
        if (!_cache.IsLoaded)
        {
            await _cache.WaitLoadedAsync(cancellationToken);
        }

        string address = SuppressionKeys.ForRecipient(recipient);
        string? domain = SuppressionKeys.DomainOf(address);
        var byAddress = _cache.Find(address);
        var byDomain = domain is null ? SuppressionMark.NotListed : _cache.Find(domain);
        if (byAddress?.Stops(bulk) == true)
        {
            return address;
        }

        if (byDomain?.Stops(bulk) == true)
        {
            return domain;
        }

        if (byAddress is not null && byDomain is not null)
        {
            return null;
        }

        // Not held (the list is larger than the copy): both questions go into the batch in flight before either is awaited.
        var addressListed = byAddress is null ? _lookUp.SubmitAsync(new(address, bulk), cancellationToken) : Task.FromResult(false);
        var domainListed = byDomain is null ? _lookUp.SubmitAsync(new(domain!, bulk), cancellationToken) : Task.FromResult(false);
        bool stopsAddress = await addressListed;
        bool stopsDomain = await domainListed;
        return stopsAddress ? address : stopsDomain ? domain : null;
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

    public async ValueTask DisposeAsync()
    {
        await _lookUp.DisposeAsync();
        await _recordSuppressed.DisposeAsync();
    }

    // One statement for the keys of a batch; every answer, listed or not, is kept in the copy for the next notification.
    private async Task<IReadOnlySet<SuppressionQuestion>> LookUpAsync(IReadOnlyList<SuppressionQuestion> questions, CancellationToken cancellationToken)
    {
        var keys = questions.Select(q => q.Key).ToHashSet(StringComparer.Ordinal);
        var listed = (await _store.FindAsync(keys, cancellationToken)).ToDictionary(e => e.Address, SuppressionMark.Of, StringComparer.Ordinal);
        foreach (string key in keys)
        {
            _cache.Remember(key, listed.GetValueOrDefault(key) ?? SuppressionMark.NotListed);
        }

        _metrics.LookedUp(keys.Count);
        return questions.Where(q => listed.TryGetValue(q.Key, out var mark) && mark.Stops(q.Bulk)).ToHashSet();
    }

    /// <summary>Whether the entry of <paramref name="Key"/> stops a notification of the bulk lane (<paramref name="Bulk"/>) or another.</summary>
    private readonly record struct SuppressionQuestion(string Key, bool Bulk);
}
