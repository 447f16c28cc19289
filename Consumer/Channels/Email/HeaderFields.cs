using System.Text;
using MimeKit;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// The optional fields of an <see cref="EmailMessage"/> resolved for one SMTP session: Reply-To and Cc go into
/// headers, Cc and Bcc into the envelope (RCPT TO), Bcc into no header at all, custom headers after the
/// system's own. Addresses go through <see cref="EnvelopeAddress"/> like the recipient's, so a non-ASCII local
/// part without SMTPUTF8 is refused as <see cref="SendFailureKind.Permanent"/> rather than written wrong.
/// </summary>
internal sealed record HeaderFields(
    IReadOnlyList<MailboxAddress> ReplyTo,
    IReadOnlyList<MailboxAddress> Cc,
    IReadOnlyList<MailboxAddress> Bcc,
    IReadOnlyList<KeyValuePair<string, string>> Custom,
    bool NeedsSmtpUtf8)
{
    /// <summary>A message with none of them (the common case, no parsing).</summary>
    public static readonly HeaderFields None = new([], [], [], [], false);

    /// <summary>The fields of <paramref name="email"/>; throws <see cref="SmtpSendException"/> (Permanent) for what cannot be sent.</summary>
    public static HeaderFields Resolve(EmailMessage email, bool serverOffersSmtpUtf8)
    {
        ArgumentNullException.ThrowIfNull(email);
        if (email is { ReplyTo: null, Cc: null, Bcc: null, Headers: null })
        {
            return None;
        }

        bool needsSmtpUtf8 = false;
        var replyTo = Mailboxes(email.ReplyTo, "Reply-To", serverOffersSmtpUtf8, ref needsSmtpUtf8);
        var cc = Mailboxes(email.Cc, "Cc", serverOffersSmtpUtf8, ref needsSmtpUtf8);
        var bcc = Mailboxes(email.Bcc, "Bcc", serverOffersSmtpUtf8, ref needsSmtpUtf8);
        if (!MessageHeaders.TryParseCustomHeaders(email.Headers, out var custom, out string? error))
        {
            throw new SmtpSendException(SendFailureKind.Permanent, null, error);
        }

        return new HeaderFields(replyTo, cc, bcc, custom, needsSmtpUtf8);
    }

    /// <summary>Every envelope recipient: <paramref name="to"/>, then Cc, then Bcc, each address once.</summary>
    public IReadOnlyList<MailboxAddress> Recipients(MailboxAddress to)
    {
        if (Cc.Count == 0 && Bcc.Count == 0)
        {
            return [to];
        }

        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { to.Address };
        return [to, .. Cc.Concat(Bcc).Where(mailbox => seen.Add(mailbox.Address))];
    }

    /// <summary>Adds Reply-To, Cc and the custom headers to <paramref name="message"/>; Bcc stays out of it.</summary>
    public void AddTo(MimeMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.ReplyTo.AddRange(ReplyTo);
        message.Cc.AddRange(Cc);
        foreach ((string name, string value) in Custom)
        {
            message.Headers.Add(new Header(Encoding.UTF8, name, value));
        }
    }

    private static List<MailboxAddress> Mailboxes(string? list, string field, bool serverOffersSmtpUtf8, ref bool needsSmtpUtf8)
    {
        if (!MessageHeaders.TryParseAddressList(list, field, out var mailboxes, out string? error))
        {
            throw new SmtpSendException(SendFailureKind.Permanent, null, error);
        }

        foreach (var mailbox in mailboxes)
        {
            _ = EnvelopeAddress.Resolve(mailbox.Address, field, serverOffersSmtpUtf8, out bool utf8);
            needsSmtpUtf8 |= utf8;
        }

        return mailboxes;
    }
}
