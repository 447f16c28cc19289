using System.Runtime.CompilerServices;
using System.Net.Security;
using System.Net.Sockets;

namespace Notifications.Consumer.Sending.Smtp;

/// <summary>
/// One TCP (optionally TLS) connection to the server: writes bytes, reads replies, each under its own
/// timeout. Knows nothing of SMTP commands; any exception leaves it unusable and the owner disposes it.
/// </summary>
internal sealed class SmtpConnection : IAsyncDisposable
{
    // Large bodies go out in pieces, each with its own timeout, so a slow link is not mistaken for a dead one.
    private const int MaxWriteChunk = 256 * 1024;

    private readonly Socket socket;
    private readonly SmtpReplyReader reader;
    private readonly CommandTimer timer = new();
    private readonly TimeSpan commandTimeout;
    private Stream stream;

    private SmtpConnection(Socket socket, TimeSpan commandTimeout)
    {
        this.socket = socket;
        this.commandTimeout = commandTimeout;
        stream = new NetworkStream(socket, ownsSocket: true);
        reader = new SmtpReplyReader(stream);
    }

    public bool IsEncrypted => stream is SslStream;

    /// <summary>Opens the TCP connection (and TLS for <see cref="SmtpSecurity.SslOnConnect"/>); reads nothing yet.</summary>
    public static async Task<SmtpConnection> OpenAsync(SmtpOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.ConnectTimeout);

        // Each message is written whole, so Nagle's delay would only add latency to small commands.
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(options.Host, options.Port, timeout.Token);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        var connection = new SmtpConnection(socket, options.CommandTimeout);
        try
        {
            if (options.Security == SmtpSecurity.SslOnConnect)
            {
                await connection.AuthenticateTlsAsync(options.Host, timeout.Token);
            }

            return connection;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// Whether the idle connection can carry another transaction. A readable socket with nothing sent
    /// means the server closed it (or sent an unsolicited 421 idle timeout): either way, reconnect.
    /// </summary>
    public bool IsReusable()
    {
        try
        {
            return !reader.HasBufferedData && !socket.Poll(TimeSpan.Zero, SelectMode.SelectRead);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return false;
        }
    }

    // Pooled state machines: writes and reads run several times a message, each would allocate one.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask WriteAsync(ReadOnlyMemory<byte> data, CancellationToken cancellationToken)
    {
        do
        {
            ReadOnlyMemory<byte> chunk = data[..Math.Min(data.Length, MaxWriteChunk)];
            CancellationToken token = timer.Start(commandTimeout, cancellationToken);
            try
            {
                await stream.WriteAsync(chunk, token);
            }
            finally
            {
                timer.Stop();
            }

            data = data[chunk.Length..];
        }
        while (!data.IsEmpty);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<SmtpReply> ReadReplyAsync(bool keepText, CancellationToken cancellationToken)
    {
        CancellationToken token = timer.Start(commandTimeout, cancellationToken);
        try
        {
            return await reader.ReadAsync(keepText, token);
        }
        finally
        {
            timer.Stop();
        }
    }

    /// <summary>Switches to TLS after the server's 220 to STARTTLS (RFC 3207) or right after connecting.</summary>
    public async Task AuthenticateTlsAsync(string targetHost, CancellationToken cancellationToken)
    {
        // Plain text already buffered after STARTTLS would be read as if it came over TLS: a known injection
        // attack (CVE-2011-0411), so it ends the connection.
        if (reader.HasBufferedData)
        {
            throw new InvalidDataException("The server sent data after its STARTTLS reply.");
        }

        var tls = new SslStream(stream, leaveInnerStreamOpen: false);
        var tlsOptions = new SslClientAuthenticationOptions { TargetHost = targetHost };
        CancellationToken token = timer.Start(commandTimeout, cancellationToken);
        try
        {
            await tls.AuthenticateAsClientAsync(tlsOptions, token);
        }
        catch
        {
            await tls.DisposeAsync();
            throw;
        }
        finally
        {
            timer.Stop();
        }

        stream = tls;
        reader.Stream = tls;
    }

    public async ValueTask DisposeAsync()
    {
        await stream.DisposeAsync();
        timer.Dispose();
    }
}
