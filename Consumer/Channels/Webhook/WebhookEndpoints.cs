using System.Collections.Immutable;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The registered endpoints by name, in memory: a lookup per webhook costs no round trip. Filled by
/// <see cref="WebhookEndpointRefreshService"/> (a full load, then the rows changed since the watermark); a name it does not
/// know yet is read from the table once (an endpoint added a moment ago), and this process's own disables go in at once.
/// </summary>
/// <remarks>
/// The state is one immutable snapshot (the endpoints and the watermark together), read without a lock and replaced whole
/// by its writers under one lock, so a lookup never sees half a change. Only a successful refresh moves the watermark: a
/// row a handler read on its own says nothing about the other rows changed meanwhile, which the next refresh must still
/// read (were a handler's row to move it, a disable or rotation made while refreshes failed could be skipped for good).
/// A row replaces the one known only when its <c>changed_at</c> is newer: a refresh that read an endpoint before a handler
/// read it again, or before this process disabled it, does not undo what came later.
/// </remarks>
internal sealed class WebhookEndpoints(IWebhookEndpointStore store)
{
    private readonly Lock _writer = new();
    private readonly TaskCompletionSource _loaded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private Snapshot _snapshot = new(ImmutableDictionary.Create<string, WebhookEndpoint>(StringComparer.Ordinal), null);

    public int Count => Current.ByName.Count;

    public bool IsLoaded => _loaded.Task.IsCompleted;

    /// <summary>Every endpoint known (for the signer's clean-up).</summary>
    public IEnumerable<WebhookEndpoint> All => Current.ByName.Values;

    private Snapshot Current => Volatile.Read(ref _snapshot);

    /// <summary>
    /// Where the next refresh reads from: the newest <c>changed_at</c> a refresh has seen less <paramref name="overlap"/> (a
    /// change whose transaction committed late), or null, a full read, while no refresh has seen a row (before the load, or
    /// while the table is empty: reading it whole costs nothing then, and no local clock is trusted against the database's).
    /// </summary>
    public DateTimeOffset? RefreshFrom(TimeSpan overlap) => Current.Watermark - overlap;

    /// <summary>Applies the rows a refresh read (the first success is the load) and moves the watermark to the newest <c>changed_at</c> among them.</summary>
    public void Refreshed(IReadOnlyList<WebhookEndpoint> rows)
    {
        lock (_writer)
        {
            var current = _snapshot;
            var byName = current.ByName.ToBuilder();
            var watermark = current.Watermark;
            foreach (var row in rows)
            {
                Keep(byName, row);
                watermark = watermark >= row.ChangedAt ? watermark : row.ChangedAt;
            }

            Volatile.Write(ref _snapshot, new Snapshot(byName.ToImmutable(), watermark));
        }

        _loaded.TrySetResult();
    }

    /// <summary>The endpoint named <paramref name="name"/> as last seen, or null (not known to this process).</summary>
    public WebhookEndpoint? Find(string? name) => name is not null && Current.ByName.TryGetValue(name, out var endpoint) ? endpoint : null;

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

        Change(byName => Keep(byName, read));
        return Find(name);
    }

    /// <summary>Records a disable this process just wrote (a 410 Gone), before the next refresh reads it back.</summary>
    public void MarkDisabled(WebhookEndpoint endpoint, string reason, DateTimeOffset at) => Change(byName =>
    {
        var known = byName.GetValueOrDefault(endpoint.Name) ?? endpoint;
        if (known.DisabledAt is null)
        {
            byName[endpoint.Name] = Disabled(known, reason, at);
        }
    });

    // Same changed_at as the row it was made from: the table's own disable, read later, is newer and replaces it.
    private static WebhookEndpoint Disabled(WebhookEndpoint known, string reason, DateTimeOffset at) => new()
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
    };

    private static void Keep(ImmutableDictionary<string, WebhookEndpoint>.Builder byName, WebhookEndpoint row)
    {
        if (!byName.TryGetValue(row.Name, out var known) || row.ChangedAt > known.ChangedAt)
        {
            byName[row.Name] = row;
        }
    }

    // A change that leaves the watermark where it is (a handler's read, this process's disable).
    private void Change(Action<ImmutableDictionary<string, WebhookEndpoint>.Builder> change)
    {
        lock (_writer)
        {
            var current = _snapshot;
            var byName = current.ByName.ToBuilder();
            change(byName);
            Volatile.Write(ref _snapshot, current with { ByName = byName.ToImmutable() });
        }
    }

    private sealed record Snapshot(ImmutableDictionary<string, WebhookEndpoint> ByName, DateTimeOffset? Watermark);
}
