using System.Collections.Concurrent;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The registered endpoints by name, in memory: a lookup per webhook costs no round trip. Filled by
/// <see cref="WebhookEndpointRefreshService"/> (a full load, then the rows changed since the watermark); a name it does not
/// know yet is read from the table once (an endpoint added a moment ago), and this process's own disables go in at once.
/// </summary>
internal sealed class WebhookEndpoints(IWebhookEndpointStore store)
{
    private readonly ConcurrentDictionary<string, WebhookEndpoint> _byName = new(StringComparer.Ordinal);
    private readonly TaskCompletionSource _loaded = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The newest <c>changed_at</c> seen (the refresh's watermark), or null before any row.</summary>
    public DateTimeOffset? Watermark { get; private set; }

    public int Count => _byName.Count;

    public bool IsLoaded => _loaded.Task.IsCompleted;

    /// <summary>Every endpoint known (for the signer's clean-up).</summary>
    public IEnumerable<WebhookEndpoint> All => _byName.Values;

    /// <summary>Applies rows read from the table (a load or a refresh).</summary>
    public void Apply(IEnumerable<WebhookEndpoint> rows, bool load)
    {
        foreach (var row in rows)
        {
            _byName.AddOrUpdate(row.Name, row, (_, known) => known.ChangedAt > row.ChangedAt ? known : row);
            Watermark = Watermark is { } seen && seen >= row.ChangedAt ? seen : row.ChangedAt;
        }

        if (load)
        {
            _loaded.TrySetResult();
        }
    }

    /// <summary>The endpoint named <paramref name="name"/> as last seen, or null (not known to this process).</summary>
    public WebhookEndpoint? Find(string? name) => name is not null && _byName.TryGetValue(name, out var endpoint) ? endpoint : null;

    /// <summary>
    /// The endpoint named <paramref name="name"/>: from memory, else (added since the last refresh?) from the table; null when
    /// there is none. Waits for the first load.
    /// </summary>
    public async ValueTask<WebhookEndpoint?> FindAsync(string name, CancellationToken cancellationToken)
    {
        if (!IsLoaded)
        {
            await _loaded.Task.WaitAsync(cancellationToken);
        }

        if (Find(name) is { } known)
        {
            return known;
        }

        if (await store.FindAsync(name, cancellationToken) is not { } read)
        {
            return null;
        }

        Apply([read], load: false);
        return Find(name);
    }

    /// <summary>Records a disable this process just wrote (a 410 Gone), before the next refresh reads it back.</summary>
    public void MarkDisabled(WebhookEndpoint endpoint, string reason, DateTimeOffset at) =>
        _byName.AddOrUpdate(endpoint.Name, endpoint, (_, known) => known.DisabledAt is not null ? known : new WebhookEndpoint
        {
            Name = known.Name,
            Url = known.Url,
            Secret = known.Secret,
            PreviousSecret = known.PreviousSecret,
            PreviousSecretUntil = known.PreviousSecretUntil,
            AllowPrivate = known.AllowPrivate,
            CreatedAt = known.CreatedAt,
            ChangedAt = known.ChangedAt,
            DisabledAt = at,
            DisabledReason = reason,
        });
}
