namespace Notifications.Shared.Data.Operations;

/// <summary>The <c>dead_letter</c> table by reason class: the groups, a bulk job's selection, its removals. One implementation per SQL dialect.</summary>
public interface IDeadLetterGroupStore
{
    /// <summary>
    /// A group's count is exact up to this; above it, the page says "more than" (<see cref="DeadLetterGroup.IsMore"/>): counting
    /// a 400,000-letter group exactly would make a page's cost grow with the table. A job's total is exact.
    /// </summary>
    public const int CountCap = 10_000;

    /// <summary>Up to <paramref name="limit"/> groups, by reason class (the column's collation), after <paramref name="after"/> (keyset; null: from the first).</summary>
    Task<IReadOnlyList<DeadLetterGroup>> ListGroupsAsync(string? after, int limit, CancellationToken cancellationToken);

    /// <summary>
    /// Up to <paramref name="limit"/> dead letters of the group of <paramref name="reasonClass"/>, newest first, older than the
    /// cursor (<paramref name="beforeAt"/>, <paramref name="beforeId"/>; null: the newest): keyset on the group's index.
    /// </summary>
    Task<IReadOnlyList<DeadLetterEntry>> ListLettersAsync(string reasonClass, DateTimeOffset? beforeAt, long beforeId, int limit, CancellationToken cancellationToken);

    /// <summary>The keys (<c>x-dead-key</c>) of the dead letters <paramref name="selection"/> holds (rows from before keys have none and are left out).</summary>
    Task<IReadOnlyList<Guid>> ListKeysAsync(DeadLetterSelection selection, CancellationToken cancellationToken);

    /// <summary>Removes the rows of <paramref name="keys"/> (one statement), and with <paramref name="withFiles"/> their notifications' attached files; returns the rows removed.</summary>
    Task<int> RemoveKeysAsync(IReadOnlyCollection<Guid> keys, bool withFiles, CancellationToken cancellationToken);
}
