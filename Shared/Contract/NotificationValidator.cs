namespace Notifications.Shared.Contract;

/// <summary>
/// Decides whether a notification can be sent; the reason is kept with a dead letter. Lengths are counted
/// in characters (Unicode code points), the unit of the outbox's columns in both dialects, so whatever the
/// outbox accepts passes here: an emoji is one character, not two UTF-16 units.
/// </summary>
public static class NotificationValidator
{
    /// <summary>The outbox's recipient column, in characters (RFC 5321: local part 64 + @ + domain 255).</summary>
    public const int MaxRecipientLength = EmailRules.MaxRecipientLength;

    /// <summary>The outbox's subject column, in characters (<see cref="EmailRules.MaxSubjectLength"/>).</summary>
    public const int MaxSubjectLength = EmailRules.MaxSubjectLength;

    /// <summary>The largest body sent, in characters: a notification, not a file transfer (the column has no limit).</summary>
    public const int MaxBodyLength = EmailRules.MaxBodyLength;

    /// <summary>Null when <paramref name="message"/> is valid; otherwise why it is not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (message.Id <= 0)
        {
            return $"invalid id: {message.Id} (ids are positive)";
        }

        if (message.Category is { } category && AudienceRules.CategoryName(category) is { } badCategory)
        {
            return badCategory;
        }

        switch (message.ChannelName)
        {
            case NotificationChannels.Webhook:
                return WebhookRules.Validate(message);
            case NotificationChannels.Push:
                return PushRules.Validate(message);
            case NotificationChannels.Live:
                return LiveRules.Validate(message);
            case NotificationChannels.Email:
                break;
            default:
                return $"unknown channel: '{Truncate(message.ChannelName)}', expected one of {string.Join(", ", NotificationChannels.All)}";
        }

        if (message.Data is not null)
        {
            return "invalid email: it carries data (the data column is for webhook and push rows)";
        }

        if (message.IsTemplated)
        {
            // The subject and bodies do not exist yet: the consumer validates them once rendered (Validate again).
            return EmailRules.Recipient(message.Recipient) ?? ValidateTemplate(message) ?? ValidateParts(message) ?? MessageHeaders.Validate(message);
        }

        return EmailRules.Recipient(message.Recipient) ?? EmailRules.Subject(message.Subject)
            ?? EmailRules.Body(message.Body) ?? ValidateParts(message) ?? MessageHeaders.Validate(message);
    }

    /// <summary>Null when an attached file's name and content type pass the client's rules (<c>AttachmentRules</c>); otherwise why not.</summary>
    public static string? ValidateAttachment(string? fileName, string? contentType) =>
        AttachmentRules.FileName(fileName) ?? AttachmentRules.ContentType(contentType);

    /// <summary>Null when <paramref name="count"/> files of <paramref name="totalBytes"/> bytes fit one notification; otherwise why not.</summary>
    public static string? ValidateAttachmentTotals(int count, long totalBytes) => AttachmentRules.Totals(count, totalBytes);

    // The HTML alternative and the attachment count (the files themselves are checked when the consumer loads them).
    private static string? ValidateParts(NotificationMessage message) => message switch
    {
        { HtmlBody: not null, IsTemplated: true } => "invalid html body: a templated notification has its template's",
        { HtmlBody: not null, IsHtml: true } => "invalid html body: the body is HTML already (is_html)",
        { HtmlBody: var html } when EmailRules.HtmlBody(html) is { } tooLong => tooLong,
        { Attachments: < 1 or > AttachmentRules.MaxCount } => $"invalid attachment count: {message.Attachments}, expected 1 to {AttachmentRules.MaxCount}",
        { FromName: { } name } => FromNameRules.FromName(name),
        _ => null,
    };

    /// <summary>The outbox's template_name column, in characters.</summary>
    public const int MaxTemplateNameLength = EmailRules.MaxTemplateNameLength;

    /// <summary>The outbox's locale column, in characters (BCP 47 tags are at most 35 in practice).</summary>
    public const int MaxLocaleLength = EmailRules.MaxLocaleLength;

    private static string? ValidateTemplate(NotificationMessage message)
    {
        if (EmailRules.TemplateName(message.TemplateName) is { } nameError)
        {
            return nameError;
        }

        if (message.Subject is not null || message.Body is not null)
        {
            return "invalid templated notification: it carries a subject or body as well as a template";
        }

        return EmailRules.Locale(message.Locale) ?? (message.TemplateData is null ? "invalid template data: missing" : null);
    }

    /// <summary>True when the notification's expiry lies before <paramref name="now"/>.</summary>
    public static bool IsExpired(NotificationMessage message, DateTimeOffset now) =>
        message.ExpiresAt is { } expiresAt && expiresAt <= now;

    /// <summary>
    /// Code points, as PostgreSQL's varchar(n) and SQL Server's check constraints count them. A surrogate
    /// pair is one; a lone surrogate (invalid UTF-16) counts as one as well.
    /// </summary>
    public static int Characters(string text) => EmailRules.Characters(text);

    internal static string Truncate(string value) => value.Length <= 64 ? value : value[..64] + "...";
}
