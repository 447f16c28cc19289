using Notifications.Shared.Data;

namespace Notifications.Consumer.Suppression;

/// <summary>What a consumer knows of one suppression key: not listed, listed for bulk mail only, or listed for all mail.</summary>
internal sealed class SuppressionMark
{
    /// <summary>No entry in force.</summary>
    public static readonly SuppressionMark NotListed = new(listed: false, bulkOnly: false);

    /// <summary>An entry of scope <c>bulk</c>.</summary>
    public static readonly SuppressionMark BulkOnlyMark = new(listed: true, bulkOnly: true);

    /// <summary>An entry of scope <c>all</c>.</summary>
    public static readonly SuppressionMark AllMail = new(listed: true, bulkOnly: false);

    private SuppressionMark(bool listed, bool bulkOnly)
    {
        Listed = listed;
        BulkOnly = bulkOnly;
    }

    public bool Listed { get; }

    public bool BulkOnly { get; }

    public static SuppressionMark Of(bool bulkOnly) => bulkOnly ? BulkOnlyMark : AllMail;

    public static SuppressionMark Of(SuppressionEntry row) => row.RemovedAt is null ? Of(row.BulkOnly) : NotListed;

    /// <summary>Whether it stops a notification of the bulk lane (<paramref name="bulk"/>) or of another.</summary>
    public bool Stops(bool bulk) => Listed && (bulk || !BulkOnly);
}
