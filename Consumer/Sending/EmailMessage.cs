namespace Notifications.Consumer.Sending;

/// <summary>One email to send: a notification rendered for a single recipient.</summary>
internal sealed record EmailMessage(
    long NotificationId,
    string To,
    string Subject,
    string Body,
    bool IsHtml,
    DateTimeOffset CreatedAt)
{
    /// <summary>An HTML alternative to a plain-text <see cref="Body"/> (a template with both bodies): sent as multipart/alternative.</summary>
    public string? HtmlBody { get; init; }
}
