namespace Notifications.Consumer.Sending.Mime;

/// <summary>
/// Splits text into lines at CRLF, CR or LF. Unlike <see cref="MemoryExtensions.EnumerateLines(ReadOnlySpan{char})"/>
/// it breaks at nothing else (U+2028, NEL and form feed stay content) and yields no empty line after a
/// trailing break, so writing each line plus CRLF reproduces the text with normalised line ends.
/// </summary>
internal ref struct TextLines
{
    private ReadOnlySpan<char> remaining;

    public TextLines(ReadOnlySpan<char> text)
    {
        remaining = text;
        Current = default;
    }

    public ReadOnlySpan<char> Current { get; private set; }

    public readonly TextLines GetEnumerator() => this;

    public bool MoveNext()
    {
        if (remaining.IsEmpty)
        {
            return false;
        }

        int end = remaining.IndexOfAny('\r', '\n');
        if (end < 0)
        {
            Current = remaining;
            remaining = default;
            return true;
        }

        Current = remaining[..end];
        bool crlf = remaining[end] == '\r' && end + 1 < remaining.Length && remaining[end + 1] == '\n';
        remaining = remaining[(end + (crlf ? 2 : 1))..];
        return true;
    }
}
