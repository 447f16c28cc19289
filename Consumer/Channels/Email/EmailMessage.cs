using Notifications.Consumer.Channels.Email.Attachments;

namespace Notifications.Consumer.Channels.Email;

/// <summary>One email to send: a notification rendered for a single recipient.</summary>
internal sealed record EmailMessage(
    long NotificationId,
    string To,
    string Subject,
    string Body,
    bool IsHtml,
    DateTimeOffset CreatedAt) : Outgoing(NotificationId, CreatedAt)
{
    /// <summary>Reply-To, Cc and Bcc address lists and the custom headers' JSON, as on the wire (<see cref="HeaderFields"/>).</summary>
    public string? ReplyTo { get; init; }

    /// <inheritdoc cref="ReplyTo"/>
    public string? Cc { get; init; }

    /// <inheritdoc cref="ReplyTo"/>
    public string? Bcc { get; init; }

    /// <inheritdoc cref="ReplyTo"/>
    public string? Headers { get; init; }

    /// <summary>Header fields to add as they are (e.g. List-Unsubscribe of bulk mail), or null for none.</summary>
    public IReadOnlyList<KeyValuePair<string, string>>? SystemHeaders { get; init; }

    /// <summary>An HTML alternative to a plain-text <see cref="Body"/> (a template with both bodies): sent as multipart/alternative.</summary>
    public string? HtmlBody { get; init; }

    /// <summary>The From header's display name for this mail (null: Smtp:From's); the address is always Smtp:From's.</summary>
    public string? FromName { get; init; }

    /// <summary>The files attached (the table <c>attachment</c>), or null for none.</summary>
    public IReadOnlyList<AttachedFile>? Attachments { get; init; }
}
