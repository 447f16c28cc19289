using System.Globalization;
using System.Text;
using MimeKit;
using MimeKit.Text;
using MimeKit.Utils;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Builds the <see cref="MimeMessage"/> for an <see cref="EmailMessage"/>: one text part, UTF-8 (or a
/// multipart/alternative of plain text and HTML when it has <see cref="EmailMessage.HtmlBody"/>); a mail with files is
/// made by MimeKit's <see cref="BodyBuilder"/> (multipart/mixed), the hand-prepared parts kept for the common mail without. The headers
/// go in as a ready <see cref="HeaderList"/>, so MimeKit neither generates a Message-ID and Date only to have
/// them replaced nor parses them back into its address lists; those whose wire form is known without
/// MimeKit's encoder (the Message-ID, the id header, a short ASCII subject) are given as raw bytes. The body
/// is encoded once, and its transfer encoding chosen without a second pass (<see cref="PreparedTextPart"/>).
/// Output depends only on the inputs, so a resend carries the same Message-ID and Date.
/// </summary>
internal sealed class MimeMessageBuilder(string from, string messageIdDomain)
{
    // Longest subject written as it is: "Subject: " and it fill the 78 characters RFC 5322 2.1.1 recommends per line.
    private const int RawSubjectLimit = 78 - 9;

    // Formatted once; each message gets a clone, as a header can belong to one header list only. The mailbox's text
    // (a name quoted where it needs it) is parsed and encoded again by MimeKit: a non-ASCII name as RFC 2047 words.
    private readonly Header fromHeader = new(Encoding.UTF8, HeaderId.From, FromAddress.Parse(from).ToString());
    private readonly string fromAddress = FromAddress.Parse(from).Address;
    private readonly bool rawMessageId = IsPlainAscii(messageIdDomain);

    /// <summary>
    /// Builds the message to <paramref name="to"/> (already resolved for the envelope), with Reply-To, Cc and the
    /// custom headers of <paramref name="fields"/> after the system's own.
    /// </summary>
    public MimeMessage Build(EmailMessage email, MailboxAddress to, HeaderFields? fields = null)
    {
        ArgumentNullException.ThrowIfNull(email);
        if (email.Subject.AsSpan().ContainsAny('\r', '\n'))
        {
            throw new SmtpSendException(SendFailureKind.Permanent, null, "Subject contains CR or LF (header injection)");
        }

        string id = email.NotificationId.ToString(CultureInfo.InvariantCulture);
        string messageId = string.Create(CultureInfo.InvariantCulture, $"<{id}.{email.CreatedAt.ToUnixTimeMilliseconds()}@{messageIdDomain}>");
        var headers = new HeaderList
        {
            new(HeaderId.Date, DateUtils.FormatDate(email.CreatedAt.ToUniversalTime())),
            FromHeader(email.FromName),
            SubjectHeader(email.Subject),
            rawMessageId ? Raw(HeaderId.MessageId, messageId) : new(HeaderId.MessageId, messageId),
            Raw("X-Notification-Id", id),
        };
        foreach (var (field, value) in email.SystemHeaders ?? [])
        {
            headers.Add(new Header(field, value));
        }

        var message = new MimeMessage(headers) { Body = email.Attachments is { Count: > 0 } ? WithAttachments(email) : Body(email) };
        message.To.Add(to);
        fields?.AddTo(message);
        return message;
    }

    // A row's own display name goes with Smtp:From's address, the one DKIM signs and SPF authorizes: only the name varies.
    private Header FromHeader(string? name) => name is null
        ? fromHeader.Clone()
        : new Header(Encoding.UTF8, HeaderId.From, new MailboxAddress(name, fromAddress).ToString());

    private static MimeEntity Body(EmailMessage email)
    {
        var body = new PreparedTextPart(email.IsHtml ? TextFormat.Html : TextFormat.Plain, NormalizeLineBreaks(email.Body));
        return email.HtmlBody is { } html ? Alternative(body, html) : body;
    }

    // MimeKit's BodyBuilder: multipart/mixed of the text (or multipart/alternative of text and HTML) and the files, each
    // base64 with its name in Content-Disposition and Content-Type (RFC 2231-encoded when it is not ASCII).
    private static MimeEntity WithAttachments(EmailMessage email)
    {
        var builder = new BodyBuilder();
        if (email.IsHtml)
        {
            builder.HtmlBody = NormalizeLineBreaks(email.Body);
        }
        else
        {
            builder.TextBody = NormalizeLineBreaks(email.Body);
            builder.HtmlBody = email.HtmlBody is { } html ? NormalizeLineBreaks(html) : null;
        }

        foreach (var file in email.Attachments!)
        {
            builder.Attachments.Add(file.FileName, file.Content, ContentType.Parse(file.ContentType));
        }

        return builder.ToMessageBody();
    }

    // RFC 2046 5.1.4: the alternatives in increasing order of preference, so the plain text first and the HTML last.
    private static MultipartAlternative Alternative(PreparedTextPart text, string html) =>
        new() { text, new PreparedTextPart(TextFormat.Html, NormalizeLineBreaks(html)) };

    // Raw when MimeKit's encoder would write it unchanged; encoded whole when MimeKit's encoder would spoil it.
    private static Header SubjectHeader(string subject) =>
        IsRawSubject(subject) ? Raw(HeaderId.Subject, subject)
        : SubjectEncoder.IsNeeded(subject) ? Raw(HeaderId.Subject, SubjectEncoder.Encode(subject))
        : new(Encoding.UTF8, HeaderId.Subject, subject);

    /// <summary>
    /// Whether MimeKit's encoder would write <paramref name="subject"/> unchanged: printable ASCII, no
    /// encoded-word marker ("=?") for a reader to decode, no space to fold or trim at either end, short enough
    /// for one line.
    /// </summary>
    internal static bool IsRawSubject(string subject) =>
        subject.Length is > 0 and <= RawSubjectLimit && IsPlainAscii(subject)
        && subject[0] != ' ' && subject[^1] != ' ' && !subject.Contains("=?", StringComparison.Ordinal);

    private static bool IsPlainAscii(string value) => !value.AsSpan().ContainsAnyExceptInRange(' ', '~');

    private static Header Raw(HeaderId id, string value) => Raw(new Header(id, string.Empty), value);

    private static Header Raw(string field, string value) => Raw(new Header(field, string.Empty), value);

    // The value as it goes on the wire: " value" and a line end (MimeKit writes it with the message's line ends).
    private static Header Raw(Header header, string value)
    {
        byte[] raw = new byte[value.Length + 2];
        raw[0] = (byte)' ';
        System.Text.Encoding.ASCII.GetBytes(value, raw.AsSpan(1));
        raw[^1] = (byte)'\n';
        header.SetRawValue(raw);
        return header;
    }

    /// <summary>
    /// Every line break of the body (CRLF, a lone CR or a lone LF) becomes one LF, which MimeKit writes as
    /// CRLF (RFC 5322 2.3: a lone CR or LF may not appear in a message), and the body ends with one: a
    /// message ends with CRLF anyway, and this way the text reads back the same whatever the transfer encoding.
    /// </summary>
    public static string NormalizeLineBreaks(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string lines = text.Contains('\r', StringComparison.Ordinal)
            ? text.Replace("\r\n", "\n", StringComparison.Ordinal).Replace('\r', '\n')
            : text;
        return lines.EndsWith('\n') ? lines : lines + "\n";
    }
}
