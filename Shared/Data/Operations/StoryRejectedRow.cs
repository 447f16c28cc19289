namespace Notifications.Shared.Data.Operations;

/// <summary>The producer's rejection of a row: the row as claimed (recipient, inserted) and why.</summary>
public sealed class StoryRejectedRow
{
    /// <summary>The <c>recipient</c> column.</summary>
    public string? Recipient { get; init; }

    /// <summary>The <c>created_at</c> column.</summary>
    public DateTime? CreatedAt { get; init; }

    /// <summary>The <c>rejected_at</c> column.</summary>
    public DateTime RejectedAt { get; init; }

    /// <summary>The <c>reason</c> column.</summary>
    public string Reason { get; init; } = "";
}
