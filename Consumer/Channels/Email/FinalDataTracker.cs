using System.Buffers.Text;
using MailKit;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Tells whether the end of a message's data reached the network: the point after which a lost reply
/// leaves the outcome unknown. MailKit's <c>SmtpStream</c> calls <see cref="LogClient"/> with the plain-text
/// bytes (before TLS) right after each write to the socket succeeded, and only then: a write that threw is
/// never logged. So the data is out once the logged bytes end with the DATA terminator "CRLF.CRLF" (RFC 5321
/// 4.1.1.4; dot-stuffing makes it unique in the stream), or, for BDAT, once the announced number of bytes
/// after "BDAT n LAST" was logged (RFC 3030). Not thread-safe, like the client it observes.
/// </summary>
internal sealed class FinalDataTracker : IProtocolLogger
{
    private static ReadOnlySpan<byte> Terminator => "\r\n.\r\n"u8;

    // The last bytes logged, so a terminator split over two writes is still seen.
    private readonly byte[] tail = new byte[4];
    private int tailLength;
    private long bdatRemaining = -1;

    /// <summary>Whether the final "." (or the last BDAT byte) was written since <see cref="Arm"/>.</summary>
    public bool FinalDataWritten { get; private set; }

    /// <summary>Whether the server sent anything since <see cref="Arm"/>: if not, it may have closed an idle connection.</summary>
    public bool ServerReplied { get; private set; }

    public IAuthenticationSecretDetector? AuthenticationSecretDetector { get; set; }

    /// <summary>Starts watching a new transaction.</summary>
    public void Arm()
    {
        (FinalDataWritten, ServerReplied, tailLength, bdatRemaining) = (false, false, 0, -1);
    }

    public void LogConnect(Uri uri)
    {
    }

    public void LogServer(byte[] buffer, int offset, int count) => ServerReplied = true;

    public void LogClient(byte[] buffer, int offset, int count)
    {
        ReadOnlySpan<byte> data = buffer.AsSpan(offset, count);
        if (bdatRemaining < 0 && data.StartsWith("BDAT "u8) && TryReadChunkSize(ref data, out long size))
        {
            bdatRemaining = size;
        }

        if (bdatRemaining >= 0)
        {
            bdatRemaining -= data.Length;
            FinalDataWritten |= bdatRemaining <= 0;
            return;
        }

        FinalDataWritten |= EndsWithTerminator(data);
        Remember(data);
    }

    public void Dispose()
    {
    }

    private bool EndsWithTerminator(ReadOnlySpan<byte> data)
    {
        if (data.Length >= Terminator.Length)
        {
            return data.EndsWith(Terminator);
        }

        Span<byte> joined = stackalloc byte[tail.Length + Terminator.Length];
        tail.AsSpan(0, tailLength).CopyTo(joined);
        data.CopyTo(joined[tailLength..]);
        return joined[..(tailLength + data.Length)].EndsWith(Terminator);
    }

    private void Remember(ReadOnlySpan<byte> data)
    {
        if (data.Length >= tail.Length)
        {
            data[^tail.Length..].CopyTo(tail);
            tailLength = tail.Length;
            return;
        }

        int keep = Math.Min(tailLength, tail.Length - data.Length);
        tail.AsSpan(tailLength - keep, keep).CopyTo(tail);
        data.CopyTo(tail.AsSpan(keep));
        tailLength = keep + data.Length;
    }

    // "BDAT <size> LAST\r\n": leaves data pointing at the chunk's first byte (MailKit writes the command and
    // the chunk into the same buffer).
    private static bool TryReadChunkSize(ref ReadOnlySpan<byte> data, out long size)
    {
        int lineEnd = data.IndexOf("\r\n"u8);
        ReadOnlySpan<byte> arguments = data["BDAT "u8.Length..];
        if (lineEnd < 0 || !Utf8Parser.TryParse(arguments, out size, out _))
        {
            size = 0;
            return false;
        }

        data = data[(lineEnd + 2)..];
        return true;
    }
}
