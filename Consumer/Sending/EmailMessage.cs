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
    /// <summary>Header fields to add as they are (e.g. List-Unsubscribe of bulk mail), or null for none.</summary>
    public IReadOnlyList<KeyValuePair<string, string>>? Headers { get; init; }
}
