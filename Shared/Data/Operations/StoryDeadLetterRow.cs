namespace Notifications.Shared.Data.Operations;

/// <summary>One dead letter of a notification: when, after how many attempts, why, and its group.</summary>
public sealed class StoryDeadLetterRow
{
    /// <summary>The <c>dead_lettered_at</c> column.</summary>
    public DateTime DeadLetteredAt { get; init; }

    /// <summary>The <c>attempts</c> column.</summary>
    public int Attempts { get; init; }

    /// <summary>The <c>reason</c> column.</summary>
    public string Reason { get; init; } = "";

    /// <summary>The <c>reason_class</c> column.</summary>
    public string ReasonClass { get; init; } = "";
}
