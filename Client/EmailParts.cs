using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>An email's parts beyond its text: an HTML alternative and attached files, checked at enqueue as the consumer would.</summary>
public sealed partial record NewNotification
{
    /// <summary>
    /// Optional: an HTML alternative to the plain-text <see cref="Body"/>; the mail goes out as multipart/alternative, the text
    /// first and the HTML last (RFC 2046 5.1.4), and readers show the HTML. Not with <see cref="IsHtml"/> (the body is then
    /// the HTML already) nor with a template (it has its own HTML body).
    /// </summary>
    public string? HtmlBody { get; init; }

    /// <summary>
    /// Optional: files sent with the mail, at most <c>10</c> of at most <c>10 MiB</c> in all (checked at enqueue). They are
    /// stored with the notification in the same transaction and removed with its records by the retention cleanup.
    /// </summary>
    public IReadOnlyList<NotificationAttachment>? Attachments { get; init; }

    /// <summary>Null when the HTML body and the attachments can go as they are; otherwise why not and which field.</summary>
    internal (string Error, string Field)? MailPartsError()
    {
        if (HtmlBody is not null && (IsHtml || TemplateName is not null))
        {
            return (IsHtml
                ? "HtmlBody is the HTML alternative to a plain-text Body: with IsHtml the Body is the HTML already"
                : "HtmlBody is for a prepared notification: a template has its own HTML body", nameof(HtmlBody));
        }

        if (EmailRules.HtmlBody(HtmlBody) is { } tooLong)
        {
            return (tooLong, nameof(HtmlBody));
        }

        if (Attachments is not { Count: > 0 } files)
        {
            return null;
        }

        long total = 0;
        foreach (var file in files)
        {
            if (file?.Content is null)
            {
                return ("invalid attachments: an attachment or its content is null", nameof(Attachments));
            }

            if ((AttachmentRules.FileName(file.FileName) ?? AttachmentRules.ContentType(file.ContentType)) is { } error)
            {
                return (error, nameof(Attachments));
            }

            total += file.Content.LongLength;
        }

        return AttachmentRules.Totals(files.Count, total) is { } totals ? (totals, nameof(Attachments)) : null;
    }
}
