using System.Runtime.CompilerServices;
using System.Text;

namespace Notifications.Consumer.Sending.Smtp;

/// <summary>
/// Reads replies from the connection through its own buffer, so the three replies of a pipelined group
/// usually come from a single read.
/// </summary>
internal sealed class SmtpReplyReader(Stream stream, int bufferSize = 4096)
{
    private readonly byte[] buffer = new byte[bufferSize];
    private int start;
    private int end;

    /// <summary>The stream replies come from; swapped for the TLS stream after STARTTLS.</summary>
    public Stream Stream { get; set; } = stream;

    /// <summary>Whether bytes the server sent are waiting beyond the last reply read.</summary>
    public bool HasBufferedData => end > start;

    /// <summary>Reads one complete reply, all its lines. Throws <see cref="IOException"/> at end of stream.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<SmtpReply> ReadAsync(bool keepText, CancellationToken cancellationToken)
    {
        int code = 0;
        StringBuilder? text = null;
        while (true)
        {
            int lineLength = await FillLineAsync(cancellationToken);
            bool last = ConsumeLine(lineLength, keepText, ref code, ref text);
            if (last)
            {
                return new SmtpReply(code, text?.ToString() ?? "");
            }
        }
    }

    /// <summary>
    /// Parses one reply line without its line end: "250-text" continues a reply, "250 text" or "250" ends it.
    /// Returns false when the line is not a reply line.
    /// </summary>
    public static bool TryParseLine(ReadOnlySpan<byte> line, out int code, out bool isLast, out ReadOnlySpan<byte> text)
    {
        code = 0;
        isLast = false;
        text = default;
        if (line.Length < 3 || line[0] is < (byte)'2' or > (byte)'5'
            || !char.IsAsciiDigit((char)line[1]) || !char.IsAsciiDigit((char)line[2]))
        {
            return false;
        }

        if (line.Length > 3 && line[3] is not ((byte)' ' or (byte)'-'))
        {
            return false;
        }

        code = ((line[0] - '0') * 100) + ((line[1] - '0') * 10) + (line[2] - '0');
        isLast = line.Length == 3 || line[3] == ' ';
        text = line.Length > 4 ? line[4..] : default;
        return true;
    }

    private bool ConsumeLine(int lineLength, bool keepText, ref int code, ref StringBuilder? text)
    {
        ReadOnlySpan<byte> line = buffer.AsSpan(start, lineLength);
        start += lineLength + 1;
        if (line.EndsWith((byte)'\r'))
        {
            line = line[..^1];
        }

        if (!TryParseLine(line, out int lineCode, out bool last, out ReadOnlySpan<byte> lineText)
            || (code != 0 && lineCode != code))
        {
            throw new InvalidDataException($"Malformed SMTP reply line: {Encoding.ASCII.GetString(line)}");
        }

        code = lineCode;
        if (keepText || code >= 400)
        {
            text = text is null ? new StringBuilder() : text.Append('\n');
            text.Append(Encoding.UTF8.GetString(lineText));
        }

        return last;
    }

    /// <summary>Reads until a whole line is buffered; returns its length up to, not including, the LF.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<int> FillLineAsync(CancellationToken cancellationToken)
    {
        int scanned = 0;
        while (true)
        {
            int newline = buffer.AsSpan(start + scanned, end - start - scanned).IndexOf((byte)'\n');
            if (newline >= 0)
            {
                return scanned + newline;
            }

            scanned = end - start;
            if (start > 0)
            {
                buffer.AsSpan(start, scanned).CopyTo(buffer);
                (start, end) = (0, scanned);
            }

            if (end == buffer.Length)
            {
                throw new InvalidDataException($"SMTP reply line longer than {buffer.Length} bytes.");
            }

            int read = await Stream.ReadAsync(buffer.AsMemory(end), cancellationToken);
            if (read == 0)
            {
                throw new IOException("The SMTP server closed the connection.");
            }

            end += read;
        }
    }
}
