namespace Notifications.Consumer.Sending.Mime;

/// <summary>
/// Writes an unstructured header field such as Subject: as is and folded at spaces when it is printable
/// ASCII, else as RFC 2047 UTF-8 encoded-words (Q or B, whichever is shorter), one per line.
/// </summary>
internal static class UnstructuredHeaderWriter
{
    /// <summary>RFC 5322 2.1.1: lines SHOULD be at most 78 characters (and MUST be at most 998).</summary>
    public const int PreferredLineLength = 78;

    private const int MaxPlainWord = 900; // a longer run of non-spaces cannot be folded under 998

    /// <summary>Writes <c>{name}: {value}</c> and the CRLF that ends the field.</summary>
    public static void Write(string name, ReadOnlySpan<char> value, scoped ref ByteWriter writer)
    {
        writer.Write(name);
        writer.Write(":"u8);
        int column = name.Length + 1;
        if (CanWritePlain(value))
        {
            WritePlain(value, column, ref writer);
        }
        else
        {
            EncodedWordWriter.Write(value, column, ref writer);
        }

        writer.Write("\r\n"u8);
    }

    private static bool CanWritePlain(ReadOnlySpan<char> value)
    {
        // "=?" would be read back as the start of an encoded-word.
        if (value.ContainsAnyExceptInRange(' ', '~') || value.Contains("=?", StringComparison.Ordinal))
        {
            return false;
        }

        foreach (Range word in value.Split(' '))
        {
            if (value[word].Length > MaxPlainWord)
            {
                return false;
            }
        }

        return true;
    }

    private static void WritePlain(ReadOnlySpan<char> value, int column, scoped ref ByteWriter writer)
    {
        writer.Write(" "u8);
        column++;
        int start = 0;
        while (start < value.Length)
        {
            // A chunk is leading spaces plus a word; folding puts the CRLF before its spaces (RFC 5322 3.2.2).
            int wordStart = start + CountSpaces(value[start..]);
            int end = value[wordStart..].IndexOf(' ');
            end = end < 0 ? value.Length : wordStart + end;
            ReadOnlySpan<char> chunk = value[start..end];
            bool canFold = start > 0 && wordStart < end; // never leave a line of whitespace only
            if (canFold && column + chunk.Length > PreferredLineLength)
            {
                writer.Write("\r\n"u8);
                column = 0;
            }

            writer.Write(chunk);
            column += chunk.Length;
            start = end;
        }
    }

    private static int CountSpaces(ReadOnlySpan<char> text)
    {
        int index = text.IndexOfAnyExcept(' ');
        return index < 0 ? text.Length : index;
    }
}
