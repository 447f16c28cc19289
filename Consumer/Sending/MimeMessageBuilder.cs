using System.Globalization;
using System.Text;
using MimeKit;
using MimeKit.Text;
using MimeKit.Utils;

namespace Notifications.Consumer.Sending;

/// <summary>
/// Builds the <see cref="MimeMessage"/> for an <see cref="EmailMessage"/>: one text part, UTF-8. The headers
/// go in through the constructor that takes them as they are, so MimeKit neither generates a Message-ID and
/// Date only to have them replaced nor parses them back into its address lists. Output depends only on the
/// inputs, so a resend carries the same Message-ID and Date.
/// </summary>
internal sealed class MimeMessageBuilder(string from, string messageIdDomain)
{
    // Formatted once; each message gets a clone, as a header can belong to one header list only.
    private readonly Header fromHeader = new(Encoding.UTF8, HeaderId.From, from);

    /// <summary>Builds the message to <paramref name="to"/> (already resolved for the envelope).</summary>
    public MimeMessage Build(EmailMessage email, MailboxAddress to)
    {
        ArgumentNullException.ThrowIfNull(email);
        if (email.Subject.AsSpan().ContainsAny('\r', '\n'))
        {
            throw new SmtpSendException(SmtpFailureKind.Permanent, null, "Subject contains CR or LF (header injection)");
        }

        var headers = new List<Header>(7)
        {
            new(HeaderId.Date, DateUtils.FormatDate(email.CreatedAt.ToUniversalTime())),
            fromHeader.Clone(),
            new(Encoding.UTF8, HeaderId.Subject, email.Subject),
            new(HeaderId.MessageId, string.Create(CultureInfo.InvariantCulture,
                $"<{email.NotificationId}.{email.CreatedAt.ToUnixTimeMilliseconds()}@{messageIdDomain}>")),
            new("X-Notification-Id", email.NotificationId.ToString(CultureInfo.InvariantCulture)),
        };

        var body = new TextPart(email.IsHtml ? TextFormat.Html : TextFormat.Plain);
        body.SetText(Encoding.UTF8, NormalizeLineBreaks(email.Body));
        var message = new MimeMessage(headers) { Body = body };
        message.To.Add(to);
        return message;
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
