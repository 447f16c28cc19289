using System.Buffers;
using System.Globalization;
using System.Text;
using MimeKit;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Turns a bare address into the mailbox MailKit sends to. An internationalised domain can always go as
/// punycode (IDNA, RFC 5891), which MailKit does when SMTPUTF8 is not in use. Only a non-ASCII local part truly
/// needs SMTPUTF8 (RFC 6531); without it the address cannot be written at all, so the message is
/// <see cref="SendFailureKind.Permanent"/>.
/// </summary>
internal static class EnvelopeAddress
{
    // System.Globalization's IDNA (UTS #46), which MimeKit uses too; it works with and without InvariantGlobalization.
    private static readonly IdnMapping Idn = new();

    // Whitespace, brackets and controls would break MAIL FROM:<...> / RCPT TO:<...> or the header.
    private static readonly SearchValues<char> AddressBreakers = SearchValues.Create(
        "<> \t\r\n\u007f\0\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\u000b\f\u000e\u000f"
        + "\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f");

    /// <summary>
    /// The mailbox for <paramref name="address"/>; <paramref name="needsSmtpUtf8"/> when
    /// the local part is not ASCII. Throws <see cref="SmtpSendException"/> (Permanent) for what no server takes.
    /// </summary>
    public static MailboxAddress Resolve(string? address, string field, bool serverOffersSmtpUtf8, out bool needsSmtpUtf8)
    {
        int at = Validate(address, field);
        string local = address![..at];
        needsSmtpUtf8 = !Ascii.IsValid(local);
        if (needsSmtpUtf8 && !serverOffersSmtpUtf8)
        {
            throw Invalid($"{field} address '{address}' has a non-ASCII local part, which needs SMTPUTF8 (RFC 6531); the server does not offer it");
        }

        try
        {
            // MimeKit keeps the domain decoded and MailKit writes it as punycode whenever SMTPUTF8 is not in use
            // (MailboxAddress.GetAddress(idnEncode: true)); but MimeKit's encoder hands an invalid name back
            // unchanged, so the name is checked here, where an invalid one can be refused.
            _ = Ascii.IsValid(address.AsSpan(at + 1)) ? null : Idn.GetAscii(address, at + 1);
            return new MailboxAddress(Encoding.UTF8, string.Empty, address);
        }
        catch (Exception e) when (e is ParseException or ArgumentException)
        {
            throw Invalid($"{field} address '{address}' is not a valid mailbox: {e.Message}");
        }
    }

    private static int Validate(string? address, string field)
    {
        if (string.IsNullOrWhiteSpace(address))
        {
            throw Invalid($"{field} address is empty");
        }

        if (address.AsSpan().ContainsAny('\r', '\n'))
        {
            throw Invalid($"{field} address contains CR or LF (header injection)");
        }

        int at = address.LastIndexOf('@');
        // No length limit of our own: the outbox's 320 characters bound it, and RFC 5321's 256-octet path
        // limit (4.5.3.1.3) is the server's to enforce (a 5xx, Permanent) — many take longer ones.
        if (address.AsSpan().ContainsAny(AddressBreakers) || at <= 0 || at == address.Length - 1)
        {
            throw Invalid($"{field} address '{address}' is not a valid mailbox");
        }

        return at;
    }

    private static SmtpSendException Invalid(string reason) => new(SendFailureKind.Permanent, null, reason);
}
