namespace Notifications.Shared.Data.Operations;

/// <summary>A delivery-log row: status (sent, suppressed, opted_out, live_acked, sending, handing_back), when, on which attempt, why.</summary>
public sealed class StoryLogRow
{
    /// <summary>The <c>status</c> column.</summary>
    public string Status { get; init; } = "";

    /// <summary>The <c>updated_at</c> column.</summary>
    public DateTime UpdatedAt { get; init; }

    /// <summary>The <c>attempts</c> column.</summary>
    public int? Attempts { get; init; }

    /// <summary>The <c>reason</c> column.</summary>
    public string? Reason { get; init; }

    /// <summary>The <c>claimed_at</c> column: when the producer claimed it (null: the message had no stamp).</summary>
    public DateTime? ClaimedAt { get; init; }

    /// <summary>The <c>published_at</c> column: when the producer published it (null: the message had no stamp).</summary>
    public DateTime? PublishedAt { get; init; }

    /// <summary>The <c>trace_id</c> column: the trace the consumer's handling belonged to.</summary>
    public string? TraceId { get; init; }
}
