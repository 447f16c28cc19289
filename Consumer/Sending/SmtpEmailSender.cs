using System.Diagnostics;
using System.Runtime.ExceptionServices;
using MailKit.Net.Smtp;
using Microsoft.Extensions.Logging;
using MimeKit;

namespace Notifications.Consumer.Sending;

/// <summary>
/// Sends through one MailKit <see cref="SmtpClient"/>, connected on the first send and kept for the next.
/// A refused transaction leaves the session open (MailKit sends RSET); an I/O error or timeout drops it and
/// the next send reconnects; after <see cref="SmtpOptions.IdleCheckAfter"/> without a send, a NOOP checks
/// the session first. Not thread-safe: one instance per concurrent handler.
/// </summary>
internal sealed class SmtpEmailSender : IEmailSender
{
    // QUIT is a courtesy: the server cleans up after a dropped connection as well.
    private static readonly TimeSpan QuitTimeout = TimeSpan.FromSeconds(2);

    // Built once: MailKit clones the options it is given for each message anyway.
    private static readonly FormatOptions Ascii = FormatOptions.Default.Clone();
    private static readonly FormatOptions International = new() { International = true };

    private readonly SmtpOptions options;
    private readonly ILogger<SmtpEmailSender> logger;
    private readonly FinalDataTracker tracker = new();
    private readonly NotificationSmtpClient client;
    private readonly MimeMessageBuilder builder;
    private long lastUsed;
    private bool lostConnection;
    private int busy;
    private bool disposed;

    public SmtpEmailSender(SmtpOptions options, ILogger<SmtpEmailSender> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        this.options = options;
        this.logger = logger;
        builder = new MimeMessageBuilder(options.From, options.MessageIdDomain);
        client = new NotificationSmtpClient(tracker)
        {
            LocalDomain = options.HeloName,
            Timeout = (int)options.CommandTimeout.TotalMilliseconds,
        };
    }

    /// <summary>
    /// Sends one message. Throws <see cref="SmtpSendException"/> on failure; <see cref="OperationCanceledException"/>
    /// when <paramref name="cancellationToken"/> fires before the final "." went out (after it, the outcome is
    /// unknown, and the exception says so).
    /// </summary>
    public async Task SendAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        ObjectDisposedException.ThrowIf(disposed, this);
        ArgumentNullException.ThrowIfNull(message);
        if (Interlocked.Exchange(ref busy, 1) != 0)
        {
            throw new InvalidOperationException("SmtpEmailSender is not thread-safe: use one instance per concurrent handler.");
        }

        try
        {
            bool reused = await ConnectAsync(cancellationToken);
            if (!await TrySendAsync(message, staleRetryAllowed: reused, cancellationToken))
            {
                SendingLog.IdleConnectionClosed(logger, options.Host, options.Port);
                await ConnectAsync(cancellationToken);
                await TrySendAsync(message, staleRetryAllowed: false, cancellationToken);
            }

            lastUsed = Stopwatch.GetTimestamp();
        }
        finally
        {
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
        try
        {
            if (client.IsConnected)
            {
                using var timeout = new CancellationTokenSource(QuitTimeout);
                await client.DisconnectAsync(quit: true, timeout.Token);
            }
        }
        catch (Exception e) when (SmtpFailures.IsSessionFailure(e))
        {
            SendingLog.QuitFailed(logger, options.Host, options.Port, e);
        }
        finally
        {
            client.Dispose();
        }
    }

    /// <summary>
    /// Runs one transaction. False when a reused session turned out closed by the server before it answered
    /// anything (an idle timeout or a restart): nothing was sent, and the caller reconnects and tries once more.
    /// </summary>
    private async Task<bool> TrySendAsync(EmailMessage message, bool staleRetryAllowed, CancellationToken cancellationToken)
    {
        bool smtpUtf8 = (client.Capabilities & SmtpCapabilities.UTF8) != 0;
        MailboxAddress from = EnvelopeAddress.Resolve(options.From, "From", smtpUtf8, out bool fromNeedsUtf8);
        MailboxAddress to = EnvelopeAddress.Resolve(message.To, "To", smtpUtf8, out bool toNeedsUtf8);
        // Disposed at once: an undisposed MimeMessage goes through the finalizer queue, which cost more CPU than
        // building and writing it did (measured: 27 us a message without dispose, 9 us with).
        using MimeMessage mime = builder.Build(message, to);
        FormatOptions format = fromNeedsUtf8 || toNeedsUtf8 ? International : Ascii;
        tracker.Arm();
        try
        {
            await client.SendAsync(format, mime, from, [to], cancellationToken);
            return true;
        }
        catch (Exception e) when (staleRetryAllowed && !tracker.ServerReplied && !cancellationToken.IsCancellationRequested
            && e is IOException or SmtpProtocolException)
        {
            if (client.IsConnected)
            {
                await client.DisconnectAsync(quit: false, CancellationToken.None);
            }

            return false;
        }
        catch (Exception e) when (SmtpFailures.IsSessionFailure(e))
        {
            // MailKit keeps the session after a refused command (it sent RSET) and drops it after any other failure.
            if (!client.IsConnected)
            {
                await DropAsync("transaction", e);
            }

            throw SmtpFailures.Classify(e, inTransaction: true, tracker.FinalDataWritten, cancellationToken.IsCancellationRequested, options)
                ?? Rethrow(e);
        }
    }

    /// <summary>Opens a session unless one is open and fit for use; true when an open one is reused.</summary>
    private async Task<bool> ConnectAsync(CancellationToken cancellationToken)
    {
        if (client.IsConnected && await IsFitAsync(cancellationToken))
        {
            return true;
        }

        if (lostConnection)
        {
            SendingLog.Reconnecting(logger, options.Host, options.Port);
        }

        // Until the session is set up, a failure counts as a lost connection for the next attempt's log.
        lostConnection = true;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.ConnectTimeout);
        try
        {
            await client.ConnectAsync(options.Host, options.Port, options.Security.ToSecureSocketOptions(), timeout.Token);
            await AuthenticateAsync(cancellationToken);
        }
        catch (Exception e) when (e is SmtpSendException || SmtpFailures.IsSessionFailure(e))
        {
            await DropAsync("connect", e);
            throw SmtpFailures.Classify(e, inTransaction: false, finalDataWritten: false, cancellationToken.IsCancellationRequested, options)
                ?? Rethrow(e);
        }

        if (!client.IsSecure && options.Security == SmtpSecurity.StartTlsWhenAvailable)
        {
            SendingLog.StartTlsNotOffered(logger, options.Host, options.Port);
        }

        SendingLog.Connected(logger, options.Host, options.Port, client.IsSecure, client.Capabilities.ToString());
        (lostConnection, lastUsed) = (false, Stopwatch.GetTimestamp());
        return false;
    }

    private async Task AuthenticateAsync(CancellationToken cancellationToken)
    {
        if (string.IsNullOrEmpty(options.Username))
        {
            return;
        }

        if (!client.IsSecure && !options.AllowAuthWithoutTls)
        {
            throw new SmtpSendException(SmtpFailureKind.Transient, null,
                "Refusing to send SMTP credentials over an unencrypted connection "
                + "(the server offered no STARTTLS; set Smtp:AllowAuthWithoutTls to allow it).");
        }

        await client.AuthenticateAsync(options.Username, options.Password ?? "", cancellationToken);
    }

    /// <summary>A session idle for longer than <see cref="SmtpOptions.IdleCheckAfter"/> must answer a NOOP first.</summary>
    private async Task<bool> IsFitAsync(CancellationToken cancellationToken)
    {
        if (Stopwatch.GetElapsedTime(lastUsed) < options.IdleCheckAfter)
        {
            return true;
        }

        try
        {
            await client.NoOpAsync(cancellationToken);
            return true;
        }
        catch (Exception e) when (SmtpFailures.IsSessionFailure(e) && !cancellationToken.IsCancellationRequested)
        {
            SendingLog.IdleConnectionClosed(logger, options.Host, options.Port);
            await DropAsync("NOOP", e);
            return false;
        }
    }

    // Keeps the original stack trace when the exception goes on as it is (a cancellation, our own refusal).
    private static Exception Rethrow(Exception e)
    {
        ExceptionDispatchInfo.Throw(e);
        return e;
    }

    private async Task DropAsync(string step, Exception? reason)
    {
        lostConnection = true;
        SendingLog.ConnectionDropped(logger, options.Host, options.Port, step, reason);
        if (client.IsConnected)
        {
            await client.DisconnectAsync(quit: false, CancellationToken.None);
        }
    }
}
