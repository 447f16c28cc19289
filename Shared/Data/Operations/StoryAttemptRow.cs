namespace Notifications.Shared.Data.Operations;

/// <summary>A <c>delivery_attempt</c> row (db/*/039_delivery_story.sql): a failed attempt that was tried again, when, and why.</summary>
public sealed class StoryAttemptRow
{
    /// <summary>The <c>attempt</c> column (1 = first delivery).</summary>
    public int Attempt { get; init; }

    /// <summary>The <c>failed_at</c> column.</summary>
    public DateTime FailedAt { get; init; }

    /// <summary>The <c>reason</c> column: the failure, the server's reply for a refused send.</summary>
    public string Reason { get; init; } = "";

    /// <summary>The <c>trace_id</c> column.</summary>
    public string? TraceId { get; init; }
}
