using System.Data.Common;

namespace Notifications.Shared.Data;

/// <summary>
/// The <c>suppression</c> table (db/*/015_suppression.sql), one implementation per SQL dialect: entries added by the
/// consumer (hard bounces, unsubscribes) and operators, read by every consumer's cache through <see cref="ChangesSinceAsync"/>.
/// </summary>
public interface ISuppressionStore
{
    /// <summary>
    /// Adds <paramref name="key"/> (see <see cref="SuppressionKeys"/>). An entry already in force is left as it is unless
    /// the new one widens its scope from bulk to all; a removed one is revived. True if a row was inserted or changed.
    /// With reason <see cref="SuppressionReasons.Unregistered"/>, the audience registry's push contact points of the key are
    /// marked dead (dead_at, dead_reason = <paramref name="detail"/>), so no fan-out picks them again.
    /// </summary>
    Task<bool> AddAsync(string key, string reason, string scope, string? detail, CancellationToken cancellationToken);

    /// <summary>
    /// <see cref="AddAsync(string, string, string, string?, CancellationToken)"/> on the caller's open
    /// <paramref name="connection"/> of this store's dialect, inside its <paramref name="transaction"/> (the bounce
    /// receiver writes a report's suppression and outcome together).
    /// </summary>
    Task<bool> AddAsync(DbConnection connection, DbTransaction? transaction, string key, string reason, string scope, string? detail, CancellationToken cancellationToken);

    /// <summary>
    /// Removes the entry of <paramref name="key"/> (keeping a tombstone for the caches). True if one was in force. A
    /// <paramref name="note"/> (why it was removed) replaces the tombstone's detail, so the removal says who asked and why.
    /// </summary>
    Task<bool> RemoveAsync(string key, string? note, CancellationToken cancellationToken);

    /// <summary>
    /// The entries in force whose key starts with <paramref name="prefix"/> (exactly, no folding), in key order after
    /// <paramref name="after"/> (keyset pagination: the last key of the previous page), at most <paramref name="limit"/>.
    /// </summary>
    Task<IReadOnlyList<SuppressionEntry>> SearchAsync(string prefix, string? after, int limit, CancellationToken cancellationToken);

    /// <summary>The entries in force, newest first, optionally of one <paramref name="reason"/>, at most <paramref name="limit"/>.</summary>
    Task<IReadOnlyList<SuppressionEntry>> ListAsync(string? reason, int limit, CancellationToken cancellationToken);

    /// <summary>The entries in force, the most recently changed first, at most <paramref name="limit"/> (a consumer's first load).</summary>
    Task<IReadOnlyList<SuppressionEntry>> LoadAsync(int limit, CancellationToken cancellationToken);

    /// <summary>
    /// The rows changed at or after <paramref name="since"/>, removed ones included, read as they arrive (a mass import is
    /// never held whole in memory).
    /// </summary>
    IAsyncEnumerable<SuppressionEntry> ChangesSinceAsync(DateTimeOffset since, CancellationToken cancellationToken);

    /// <summary>The entries in force among <paramref name="keys"/> (one statement for a batch of lookups).</summary>
    Task<IReadOnlyList<SuppressionEntry>> FindAsync(IReadOnlyCollection<string> keys, CancellationToken cancellationToken);

    /// <summary>Records the notifications as 'suppressed' in the delivery log; an id that has a row already keeps it.</summary>
    Task RecordSuppressedAsync(IReadOnlyCollection<SentNotification> notifications, CancellationToken cancellationToken);
}
