namespace Notifications.Shared.Data.Operations;

/// <summary>A waiting outbox row as a notification's story shows it.</summary>
public sealed class StoryOutboxRow
{
    /// <summary>The <c>recipient</c> column.</summary>
    public string Recipient { get; init; } = "";

    /// <summary>The <c>channel</c> column.</summary>
    public string Channel { get; init; } = "";

    /// <summary>The <c>created_at</c> column.</summary>
    public DateTime CreatedAt { get; init; }

    /// <summary>The <c>not_before</c> column.</summary>
    public DateTime? NotBefore { get; init; }

    /// <summary>The <c>trace_parent</c> column.</summary>
    public string? TraceParent { get; init; }
}
