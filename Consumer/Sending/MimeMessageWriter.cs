using System.Buffers;
using System.Text;
using Notifications.Consumer.Sending.Mime;

namespace Notifications.Consumer.Sending;

/// <summary>
/// Renders an <see cref="EmailMessage"/> as an RFC 5322 message with a single text part, CRLF line ends,
/// not yet dot-stuffed. Output depends only on its inputs, so a resend carries the same Message-ID and Date.
/// </summary>
internal static class MimeMessageWriter
{
    /// <summary>RFC 5322 2.1.1: at most 998 bytes per line, CRLF excluded.</summary>
    public const int MaxLineBytes = 998;

    private const int MaxAddressLength = 254; // RFC 5321 4.5.3.1.3: a path is at most 256 with its brackets

    /// <summary>Rejects, as <see cref="SmtpFailureKind.Permanent"/>, what no server could ever accept.</summary>
    public static void Validate(EmailMessage message, string from)
    {
        ArgumentNullException.ThrowIfNull(message);
        ValidateAddress(message.To, "To");
        ValidateAddress(from, "From");
        if (message.Subject.AsSpan().ContainsAny('\r', '\n'))
        {
            throw Invalid("Subject contains CR or LF (header injection)");
        }
    }

    /// <summary>
    /// Writes the message; <paramref name="allow8Bit"/> when the server offered 8BITMIME. Returns the body's
    /// transfer encoding: <see cref="ContentTransferEncoding.EightBit"/> needs MAIL FROM ... BODY=8BITMIME.
    /// </summary>
    public static ContentTransferEncoding Write(
        EmailMessage message, string from, string messageIdDomain, bool allow8Bit, IBufferWriter<byte> output)
    {
        Validate(message, from);
        ContentTransferEncoding encoding = ChooseEncoding(message.Body, allow8Bit);
        var writer = new ByteWriter(output);
        WriteHeaders(message, from, messageIdDomain, encoding, ref writer);
        if (encoding == ContentTransferEncoding.QuotedPrintable)
        {
            QuotedPrintableEncoder.Encode(message.Body, ref writer);
        }
        else
        {
            foreach (ReadOnlySpan<char> line in new TextLines(message.Body))
            {
                writer.Write(line);
                writer.Write("\r\n"u8);
            }
        }

        writer.Flush();
        return encoding;
    }

    /// <summary>7bit or 8bit needs lines of at most 998 bytes and no NUL (RFC 2045 2.7, 2.8); QP has no such limits.</summary>
    public static ContentTransferEncoding ChooseEncoding(ReadOnlySpan<char> body, bool allow8Bit)
    {
        bool ascii = true;
        foreach (ReadOnlySpan<char> line in new TextLines(body))
        {
            // Each char is at most 3 UTF-8 bytes, so short lines skip the byte count.
            bool tooLong = line.Length > MaxLineBytes / 3 && Encoding.UTF8.GetByteCount(line) > MaxLineBytes;
            if (tooLong || line.Contains('\0'))
            {
                return ContentTransferEncoding.QuotedPrintable;
            }

            ascii = ascii && Ascii.IsValid(line);
        }

        return ascii ? ContentTransferEncoding.SevenBit
            : allow8Bit ? ContentTransferEncoding.EightBit
            : ContentTransferEncoding.QuotedPrintable;
    }

    private static void WriteHeaders(
        EmailMessage message, string from, string messageIdDomain, ContentTransferEncoding encoding, scoped ref ByteWriter writer)
    {
        writer.Write("Date: "u8);
        writer.Write(message.CreatedAt.ToUniversalTime(), "ddd, dd MMM yyyy HH:mm:ss '+0000'");
        writer.Write("\r\nFrom: "u8);
        writer.Write(from);
        writer.Write("\r\nTo: "u8);
        writer.Write(message.To);
        writer.Write("\r\n"u8);
        UnstructuredHeaderWriter.Write("Subject", message.Subject, ref writer);
        writer.Write("Message-ID: <"u8);
        writer.Write(message.NotificationId);
        writer.Write("."u8);
        writer.Write(message.CreatedAt.ToUnixTimeMilliseconds());
        writer.Write("@"u8);
        writer.Write(messageIdDomain);
        writer.Write(">\r\nX-Notification-Id: "u8);
        writer.Write(message.NotificationId);
        writer.Write("\r\nMIME-Version: 1.0\r\nContent-Type: "u8);
        writer.Write(message.IsHtml ? "text/html; charset=utf-8"u8 : "text/plain; charset=utf-8"u8);
        writer.Write("\r\nContent-Transfer-Encoding: "u8);
        writer.Write(encoding switch
        {
            ContentTransferEncoding.SevenBit => "7bit"u8,
            ContentTransferEncoding.EightBit => "8bit"u8,
            _ => "quoted-printable"u8,
        });
        writer.Write("\r\n\r\n"u8);
    }

    private static void ValidateAddress(string? address, string field)
    {
        if (string.IsNullOrWhiteSpace(address))
        {
            throw Invalid($"{field} address is empty");
        }

        if (address.AsSpan().ContainsAny('\r', '\n'))
        {
            throw Invalid($"{field} address contains CR or LF (header injection)");
        }

        // Whitespace, brackets and controls would break MAIL FROM:<...> / RCPT TO:<...> or the header.
        if (address.Length > MaxAddressLength || address.AsSpan().ContainsAny(AddressBreakers))
        {
            throw Invalid($"{field} address is not a valid mailbox");
        }
    }

    private static SmtpSendException Invalid(string reason) => new(SmtpFailureKind.Permanent, null, reason);

    private static readonly SearchValues<char> AddressBreakers = SearchValues.Create(
        "<> \t\u007f\0\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\u000b\f\u000e\u000f"
        + "\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f");
}
