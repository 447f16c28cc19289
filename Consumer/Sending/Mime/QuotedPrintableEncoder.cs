using System.Buffers;
using System.Text;

namespace Notifications.Consumer.Sending.Mime;

/// <summary>Quoted-printable encoding of UTF-8 text (RFC 2045 section 6.7).</summary>
internal static class QuotedPrintableEncoder
{
    /// <summary>RFC 2045 6.7 rule 5: encoded lines are at most 76 characters, a soft break's "=" included.</summary>
    public const int MaxLineLength = 76;

    /// <summary>Encodes <paramref name="text"/> with its line ends as CRLF; every line, the last included, ends in CRLF.</summary>
    public static void Encode(ReadOnlySpan<char> text, IBufferWriter<byte> output)
    {
        var writer = new ByteWriter(output);
        Encode(text, ref writer);
        writer.Flush();
    }

    /// <inheritdoc cref="Encode(ReadOnlySpan{char}, IBufferWriter{byte})"/>
    public static void Encode(ReadOnlySpan<char> text, scoped ref ByteWriter writer)
    {
        foreach (ReadOnlySpan<char> line in new TextLines(text))
        {
            EncodeLine(line, ref writer);
        }
    }

    private static void EncodeLine(ReadOnlySpan<char> line, scoped ref ByteWriter writer)
    {
        Span<byte> utf8 = stackalloc byte[4];
        int column = 0;
        while (!line.IsEmpty)
        {
            // A lone surrogate decodes as U+FFFD rather than producing invalid UTF-8.
            Rune.DecodeFromUtf16(line, out Rune rune, out int consumed);
            line = line[consumed..];
            int count = rune.EncodeToUtf8(utf8);
            for (int i = 0; i < count; i++)
            {
                column = EncodeByte(utf8[i], line.IsEmpty && i == count - 1, column, ref writer);
            }
        }

        writer.Write("\r\n"u8);
    }

    private static int EncodeByte(byte value, bool lastOnLine, int column, scoped ref ByteWriter writer)
    {
        // Rule 3: whitespace at the end of a line may be stripped in transit, so there it is encoded.
        bool literal = value is >= 33 and <= 126 and not (byte)'='
            || (value is (byte)' ' or (byte)'\t' && !lastOnLine);
        int width = literal ? 1 : 3;

        // Keep room for a soft break's "=" unless nothing follows on this line.
        if (column + width > (lastOnLine ? MaxLineLength : MaxLineLength - 1))
        {
            writer.Write("=\r\n"u8);
            column = 0;
        }

        if (literal)
        {
            writer.Write(value);
        }
        else
        {
            writer.Write((byte)'=');
            writer.Write(Hex[value >> 4]);
            writer.Write(Hex[value & 0xF]);
        }

        return column + width;
    }

    private static ReadOnlySpan<byte> Hex => "0123456789ABCDEF"u8;
}
