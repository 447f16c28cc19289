namespace Notifications.Shared.Data.Operations;

/// <summary>A <c>notification_outcome</c> row (db/*/037_bounces.sql): bounced, complained or deferred, for whom, what the report said, when.</summary>
public sealed class StoryOutcomeRow
{
    /// <summary>The <c>outcome</c> column: <c>bounced</c>, <c>complained</c> or <c>deferred</c>.</summary>
    public string Outcome { get; init; } = "";

    /// <summary>The <c>recipient</c> column.</summary>
    public string Recipient { get; init; } = "";

    /// <summary>The <c>status</c> column: the enhanced status code, or the feedback type.</summary>
    public string? Status { get; init; }

    /// <summary>The <c>diagnostic</c> column: the remote server's words.</summary>
    public string? Diagnostic { get; init; }

    /// <summary>The <c>reported_at</c> column.</summary>
    public DateTime ReportedAt { get; init; }
}
