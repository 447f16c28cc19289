namespace Notifications.Shared.Data;

/// <summary>One row of the <c>suppression</c> table (db/*/015_suppression.sql).</summary>
/// <param name="Address">The key: a lower-case address, or <c>@</c> and a domain for every address at it.</param>
/// <param name="Reason">One of <see cref="SuppressionReasons.All"/>.</param>
/// <param name="Scope"><c>all</c>: every notification; <c>bulk</c>: only those of priority bulk.</param>
/// <param name="Since">When the entry was added (or revived, or widened).</param>
/// <param name="Detail">Why, for people: the SMTP reply of a hard bounce, an operator's note.</param>
/// <param name="ChangedAt">When the row last changed (the consumers' refresh watermark).</param>
/// <param name="RemovedAt">When it was removed (a tombstone), or null while it is in force.</param>
public sealed record SuppressionEntry(
    string Address, string Reason, string Scope, DateTimeOffset Since, string? Detail, DateTimeOffset ChangedAt, DateTimeOffset? RemovedAt)
{
    /// <summary>Whether the entry stops only bulk-lane notifications.</summary>
    public bool BulkOnly => Scope == SuppressionReasons.BulkScope;
}
