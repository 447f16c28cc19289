using System.Net.Sockets;
using System.Security.Authentication;
using Microsoft.Extensions.Logging;
using Notifications.Consumer.Sending.Smtp;

namespace Notifications.Consumer.Sending;

/// <summary>
/// Sends through one SMTP connection, opened on the first send and kept for the next. A refused
/// transaction is reset with RSET and the connection kept; an I/O error or timeout drops the connection
/// and the next send opens a new one. Not thread-safe: one instance per concurrent handler.
/// </summary>
internal sealed class SmtpEmailSender : IEmailSender
{
    // QUIT is a courtesy: the server cleans up after a dropped connection as well.
    private static readonly TimeSpan QuitTimeout = TimeSpan.FromSeconds(2);
    private static readonly byte[] Quit = "QUIT\r\n"u8.ToArray();
    private static readonly byte[] Reset = "RSET\r\n"u8.ToArray();

    private readonly SmtpOptions options;
    private readonly ILogger<SmtpEmailSender> logger;
    private readonly MailTransaction transaction;
    private SmtpConnection? connection;
    private SmtpExtensions extensions = SmtpExtensions.None;
    private bool lostConnection;
    private int busy;
    private bool disposed;

    public SmtpEmailSender(SmtpOptions options, ILogger<SmtpEmailSender> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        this.options = options;
        this.logger = logger;
        transaction = new MailTransaction(options.From, options.MessageIdDomain);
    }

    /// <summary>
    /// Sends one message. Throws <see cref="SmtpSendException"/> on failure; <see cref="OperationCanceledException"/>
    /// when <paramref name="cancellationToken"/> fires before the final "." went out (after it, the outcome is
    /// unknown, and the exception says so).
    /// </summary>
    public async Task SendAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        ObjectDisposedException.ThrowIf(disposed, this);
        MimeMessageWriter.Validate(message, options.From);
        if (Interlocked.Exchange(ref busy, 1) != 0)
        {
            throw new InvalidOperationException("SmtpEmailSender is not thread-safe: use one instance per concurrent handler.");
        }

        bool inTransaction = false;
        try
        {
            SmtpConnection open = await GetConnectionAsync(cancellationToken);
            inTransaction = true;
            if (await transaction.RunAsync(open, extensions, message, cancellationToken) is { } refusal)
            {
                await AfterRefusalAsync(refusal, cancellationToken);
                throw new SmtpSendException(refusal.FailureKind, refusal.Code, $"{transaction.Step}: {refusal}");
            }
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            string step = inTransaction ? transaction.Step : "connect";
            bool unknown = inTransaction && transaction.TerminatorWritten;
            await DropConnectionAsync(step, e);
            if (e is OperationCanceledException && cancellationToken.IsCancellationRequested && !unknown)
            {
                throw;
            }

            throw Failure(step, unknown, e, cancellationToken);
        }
        finally
        {
            transaction.TrimBuffers();
            Volatile.Write(ref busy, 0);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (disposed)
        {
            return;
        }

        disposed = true;
        if (connection is not { } open)
        {
            return;
        }

        connection = null;
        try
        {
            using var timeout = new CancellationTokenSource(QuitTimeout);
            await open.WriteAsync(Quit, timeout.Token);
            await open.ReadReplyAsync(keepText: false, timeout.Token);
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            SendingLog.QuitFailed(logger, options.Host, options.Port, e);
        }
        finally
        {
            await open.DisposeAsync();
        }
    }

    private async Task<SmtpConnection> GetConnectionAsync(CancellationToken cancellationToken)
    {
        if (connection is { } current)
        {
            if (current.IsReusable())
            {
                return current;
            }

            SendingLog.IdleConnectionClosed(logger, options.Host, options.Port);
            connection = null;
            await current.DisposeAsync();
        }
        else if (lostConnection)
        {
            SendingLog.Reconnecting(logger, options.Host, options.Port);
        }

        // Until the handshake succeeds, a failure counts as a lost connection for the next attempt's log.
        lostConnection = true;
        SmtpConnection opened = await SmtpConnection.OpenAsync(options, cancellationToken);
        try
        {
            extensions = await SmtpHandshake.RunAsync(opened, options, logger, cancellationToken);
        }
        catch
        {
            await opened.DisposeAsync();
            throw;
        }

        SendingLog.Connected(logger, options.Host, options.Port, opened.IsEncrypted, extensions.ToString());
        (connection, lostConnection) = (opened, false);
        return opened;
    }

    /// <summary>After a refusal: 421 means the server hung up; an envelope refusal needs RSET (RFC 5321 4.1.1.5).</summary>
    private async Task AfterRefusalAsync(SmtpReply refusal, CancellationToken cancellationToken)
    {
        if (refusal.IsServiceClosing)
        {
            await DropConnectionAsync(transaction.Step, null);
            return;
        }

        if (!transaction.NeedsReset || connection is not { } open)
        {
            return;
        }

        try
        {
            await open.WriteAsync(Reset, cancellationToken);
            SmtpReply reply = await open.ReadReplyAsync(keepText: false, cancellationToken);
            if (reply.Code != 250)
            {
                SendingLog.ResetRefused(logger, reply.ToString(), options.Host, options.Port);
                await DropConnectionAsync("RSET", null);
            }
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            // The refusal is what the caller needs to hear; the broken connection only costs a reconnect.
            await DropConnectionAsync("RSET", e);
        }
    }

    private async Task DropConnectionAsync(string step, Exception? reason)
    {
        lostConnection = true;
        if (connection is not { } open)
        {
            return;
        }

        connection = null;
        SendingLog.ConnectionDropped(logger, options.Host, options.Port, step, reason);
        await open.DisposeAsync();
    }

    private SmtpSendException Failure(string step, bool unknown, Exception e, CancellationToken cancellationToken)
    {
        string cause = e is not OperationCanceledException ? e.Message
            : cancellationToken.IsCancellationRequested ? "cancelled by the caller"
            : step == "connect" ? $"timed out (Smtp:ConnectTimeout {options.ConnectTimeout}, Smtp:CommandTimeout {options.CommandTimeout})"
            : $"timed out (Smtp:CommandTimeout {options.CommandTimeout})";
        return unknown
            ? new SmtpSendException(SmtpFailureKind.Unknown, null,
                $"Lost after the final '.' and before the server's reply ({cause}): the message may or may not have been accepted.", e)
            : new SmtpSendException(SmtpFailureKind.Transient, null, $"SMTP {step} failed: {cause}", e);
    }

    private static bool IsConnectionFailure(Exception e) =>
        e is IOException or SocketException or OperationCanceledException or InvalidDataException
            or AuthenticationException or ObjectDisposedException;
}
