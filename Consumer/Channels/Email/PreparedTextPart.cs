using MimeKit;
using MimeKit.Text;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// A UTF-8 text part whose transfer encoding is chosen from the facts gathered while its text was encoded,
/// not by MimeKit's <see cref="MimePart.Prepare"/>, which reads the whole content once more through a
/// measuring filter stream (buffers and all) for every message. The choice follows MimeKit's
/// <c>BestEncodingFilter</c> rule for rule, so the bytes on the wire are the same (a unit test compares the two).
/// </summary>
internal sealed class PreparedTextPart : TextPart
{
    private readonly BodyFacts facts;

    /// <param name="format">Plain text or HTML.</param>
    /// <param name="text">The text, line breaks already one LF each (see <see cref="MimeMessageBuilder.NormalizeLineBreaks"/>).</param>
    public PreparedTextPart(TextFormat format, string text)
        : base(format)
    {
        byte[] bytes = System.Text.Encoding.UTF8.GetBytes(text);
        facts = BodyFacts.Of(bytes);
        ContentType.Charset = "utf-8";
        Content = new MimeContent(new MemoryStream(bytes, writable: false));
    }

    /// <summary>Sets the transfer encoding MimeKit would choose for <paramref name="constraint"/>, without a second pass.</summary>
    public override void Prepare(EncodingConstraint constraint, int maxLineLength = 78)
    {
        if (ContentTransferEncoding is ContentEncoding.QuotedPrintable or ContentEncoding.Base64 or ContentEncoding.UUEncode)
        {
            return;
        }

        var best = facts.BestEncoding(constraint, maxLineLength);
        if (ContentTransferEncoding == ContentEncoding.Default && best == ContentEncoding.SevenBit)
        {
            return;
        }

        ContentTransferEncoding = best;
    }
}

/// <summary>What MimeKit's best-encoding scan counts in a body: NUL and 8-bit bytes, the longest line, an mbox "From " line.</summary>
internal readonly record struct BodyFacts(int Total, int Nuls, int EightBit, int MaxLine, bool FromLine)
{
    /// <summary>Scans UTF-8 <paramref name="bytes"/> whose line breaks are single LFs.</summary>
    public static BodyFacts Of(ReadOnlySpan<byte> bytes)
    {
        int total = bytes.Length;
        int nuls = bytes.Count((byte)0);
        int eightBit = bytes.IndexOfAnyInRange((byte)0x80, (byte)0xFF) < 0 ? 0 : CountEightBit(bytes);
        int maxLine = 0;
        bool fromLine = false;
        while (!bytes.IsEmpty)
        {
            int end = bytes.IndexOf((byte)'\n');
            if (end < 0)
            {
                // MimeKit counts the length of a last line without LF, but looks for "From " only on ended lines.
                maxLine = Math.Max(maxLine, bytes.Length);
                break;
            }

            maxLine = Math.Max(maxLine, end);
            fromLine |= bytes[..end].StartsWith("From "u8);
            bytes = bytes[(end + 1)..];
        }

        return new BodyFacts(total, nuls, eightBit, maxLine, fromLine);
    }

    /// <summary>MimeKit's <c>BestEncodingFilter.GetBestEncoding</c> on these facts.</summary>
    public ContentEncoding BestEncoding(EncodingConstraint constraint, int maxLineLength)
    {
        bool reflow = FromLine || MaxLine > maxLineLength;
        bool mostlyEightBit = EightBit >= (int)(Total * (17.0 / 100.0));
        return constraint switch
        {
            EncodingConstraint.SevenBit when Nuls > 0 => ContentEncoding.Base64,
            EncodingConstraint.SevenBit when EightBit > 0 => mostlyEightBit ? ContentEncoding.Base64 : ContentEncoding.QuotedPrintable,
            EncodingConstraint.SevenBit => reflow ? ContentEncoding.QuotedPrintable : ContentEncoding.SevenBit,
            EncodingConstraint.EightBit when Nuls > 0 => ContentEncoding.Base64,
            EncodingConstraint.EightBit when reflow => ContentEncoding.QuotedPrintable,
            EncodingConstraint.EightBit => EightBit > 0 ? ContentEncoding.EightBit : ContentEncoding.SevenBit,
            EncodingConstraint.None when reflow => Nuls > 0 || EightBit > (int)(Total * (17.0 / 100.0)) ? ContentEncoding.Base64 : ContentEncoding.QuotedPrintable,
            EncodingConstraint.None when Nuls > 0 => ContentEncoding.Binary,
            EncodingConstraint.None => EightBit > 0 ? ContentEncoding.EightBit : ContentEncoding.SevenBit,
            _ => throw new ArgumentOutOfRangeException(nameof(constraint)),
        };
    }

    private static int CountEightBit(ReadOnlySpan<byte> bytes)
    {
        int count = 0;
        foreach (byte b in bytes)
        {
            count += b >> 7;
        }

        return count;
    }
}
