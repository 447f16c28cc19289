using System.Collections.Concurrent;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// The entries in force, by key (an address or <c>@domain</c>), in memory: a lookup per notification costs no round trip.
/// Filled by <see cref="SuppressionRefreshService"/>; this process's own additions go in at once.
/// </summary>
internal sealed class SuppressionCache
{
    private readonly ConcurrentDictionary<string, bool> _bulkOnlyByKey = new(StringComparer.Ordinal);
    private readonly TaskCompletionSource _loaded = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The newest <c>changed_at</c> seen (the refresh's watermark), or null before the first load.</summary>
    public DateTimeOffset? Watermark { get; private set; }

    public int Count => _bulkOnlyByKey.Count;

    public bool IsLoaded => _loaded.Task.IsCompleted;

    /// <summary>Waits for the first full load: until then nobody can say an address is not suppressed.</summary>
    public Task WaitLoadedAsync(CancellationToken cancellationToken) => _loaded.Task.WaitAsync(cancellationToken);

    /// <summary>Applies rows read from the table (a load or a refresh): a removed row drops its key.</summary>
    public void Apply(IEnumerable<SuppressionEntry> rows, bool load)
    {
        foreach (var row in rows)
        {
            if (row.RemovedAt is null)
            {
                _bulkOnlyByKey[row.Address] = row.BulkOnly;
            }
            else
            {
                _bulkOnlyByKey.TryRemove(row.Address, out _);
            }

            Watermark = Watermark is { } seen && seen >= row.ChangedAt ? seen : row.ChangedAt;
        }

        if (load)
        {
            _loaded.TrySetResult();
        }
    }

    /// <summary>Records an entry this process just wrote, before the next refresh reads it back.</summary>
    public void Add(string key, bool bulkOnly) =>
        _bulkOnlyByKey.AddOrUpdate(key, bulkOnly, (_, existing) => existing && bulkOnly);

    /// <summary>The key that stops a notification to <paramref name="recipient"/> (its address, else its domain), or null.</summary>
    public string? Match(string recipient, bool bulk)
    {
        string address = SuppressionKeys.ForRecipient(recipient);
        if (Applies(address, bulk))
        {
            return address;
        }

        return SuppressionKeys.DomainOf(address) is { } domain && Applies(domain, bulk) ? domain : null;
    }

    private bool Applies(string key, bool bulk) => _bulkOnlyByKey.TryGetValue(key, out bool bulkOnly) && (bulk || !bulkOnly);
}
