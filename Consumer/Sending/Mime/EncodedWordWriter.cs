using System.Buffers.Text;
using System.Text;

namespace Notifications.Consumer.Sending.Mime;

/// <summary>
/// RFC 2047 UTF-8 encoded-words for header text that is not printable ASCII, in Q or B encoding, whichever
/// is shorter (Q keeps mostly-ASCII text readable). Each word fills one line of at most 78 characters.
/// </summary>
internal static class EncodedWordWriter
{
    private const int MaxEncodedWordLength = 75; // RFC 2047 section 2
    private const int WordOverhead = 12; // "=?utf-8?Q?" + "?="

    /// <summary>
    /// Writes <paramref name="value"/> as encoded-words, each after a space and on a line of its own (folded),
    /// the first continuing the current line at <paramref name="column"/>. Ends without a line break.
    /// </summary>
    public static void Write(ReadOnlySpan<char> value, int column, scoped ref ByteWriter writer)
    {
        bool useQ = EncodedLength(value, q: true) <= EncodedLength(value, q: false);
        do
        {
            writer.Write(" "u8); // the first separates the name, later ones start a folded line
            column++;
            int capacity = Math.Max(Math.Min(MaxEncodedWordLength, UnstructuredHeaderWriter.PreferredLineLength - column) - WordOverhead, 8);
            writer.Write(Charset);
            writer.Write(useQ ? "Q?"u8 : "B?"u8);
            value = useQ ? WriteQWord(value, capacity, ref writer) : WriteBWord(value, capacity, ref writer);
            writer.Write("?="u8);
            if (!value.IsEmpty)
            {
                writer.Write("\r\n"u8);
                column = 0;
            }
        }
        while (!value.IsEmpty);
    }

    // Words hold whole characters (RFC 2047 section 5): a rune's bytes never straddle two words.
    private static ReadOnlySpan<char> WriteQWord(ReadOnlySpan<char> value, int capacity, scoped ref ByteWriter writer)
    {
        Span<byte> utf8 = stackalloc byte[4];
        int used = 0;
        while (!value.IsEmpty)
        {
            Rune.DecodeFromUtf16(value, out Rune rune, out int consumed);
            int count = rune.EncodeToUtf8(utf8);
            int width = QWidth(utf8[..count]);
            if (used > 0 && used + width > capacity)
            {
                break;
            }

            foreach (byte b in utf8[..count])
            {
                WriteQByte(b, ref writer);
            }

            used += width;
            value = value[consumed..];
        }

        return value;
    }

    private static ReadOnlySpan<char> WriteBWord(ReadOnlySpan<char> value, int capacity, scoped ref ByteWriter writer)
    {
        Span<byte> bytes = stackalloc byte[48];
        int maxBytes = Math.Min(capacity / 4 * 3, bytes.Length);
        int length = 0;
        while (!value.IsEmpty)
        {
            Rune.DecodeFromUtf16(value, out Rune rune, out int consumed);
            if (length > 0 && length + rune.Utf8SequenceLength > maxBytes)
            {
                break;
            }

            length += rune.EncodeToUtf8(bytes[length..]);
            value = value[consumed..];
        }

        Span<byte> base64 = stackalloc byte[64];
        Base64.EncodeToUtf8(bytes[..length], base64, out _, out int written);
        writer.Write(base64[..written]);
        return value;
    }

    private static int EncodedLength(ReadOnlySpan<char> value, bool q)
    {
        Span<byte> utf8 = stackalloc byte[4];
        int total = 0;
        foreach (Rune rune in value.EnumerateRunes())
        {
            int count = rune.EncodeToUtf8(utf8);
            total += q ? QWidth(utf8[..count]) : count;
        }

        return q ? total : (total + 2) / 3 * 4;
    }

    private static int QWidth(ReadOnlySpan<byte> utf8)
    {
        int width = 0;
        foreach (byte b in utf8)
        {
            width += IsQLiteral(b) || b == ' ' ? 1 : 3;
        }

        return width;
    }

    private static void WriteQByte(byte b, scoped ref ByteWriter writer)
    {
        if (IsQLiteral(b))
        {
            writer.Write(b);
        }
        else if (b == ' ')
        {
            writer.Write((byte)'_'); // RFC 2047 4.2 (2)
        }
        else
        {
            writer.Write((byte)'=');
            writer.Write(Hex[b >> 4]);
            writer.Write(Hex[b & 0xF]);
        }
    }

    // The strictest set RFC 2047 5 (3) allows, so the word is safe in any header.
    private static bool IsQLiteral(byte b) =>
        b is >= (byte)'a' and <= (byte)'z' or >= (byte)'A' and <= (byte)'Z' or >= (byte)'0' and <= (byte)'9'
            or (byte)'!' or (byte)'*' or (byte)'+' or (byte)'-' or (byte)'/';

    private static ReadOnlySpan<byte> Charset => "=?utf-8?"u8;

    private static ReadOnlySpan<byte> Hex => "0123456789ABCDEF"u8;
}
