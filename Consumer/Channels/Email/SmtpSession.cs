using System.Diagnostics;
using System.Runtime.ExceptionServices;
using MailKit;
using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// The sender's one MailKit session: opened (connect, EHLO, STARTTLS, AUTH) when needed and kept; a session
/// idle for longer than <see cref="SmtpOptions.IdleCheckAfter"/> must answer a NOOP before it is used again.
/// Every failure to open it is <see cref="SendFailureKind.Transient"/> (see <see cref="SmtpFailures"/>).
/// </summary>
/// <param name="options">The relay and its timeouts.</param>
/// <param name="protocolLogger">Sees what is written to the server (<see cref="FinalDataTracker"/>).</param>
/// <param name="logger">The sender's logger.</param>
/// <param name="idleReconnected">Called when an idle session is found closed and is reopened (a metric).</param>
internal sealed class SmtpSession(SmtpOptions options, IProtocolLogger protocolLogger, ILogger logger, Action? idleReconnected = null) : IAsyncDisposable
{
    // QUIT is a courtesy: the server cleans up after a dropped connection as well.
    private static readonly TimeSpan QuitTimeout = TimeSpan.FromSeconds(2);

    private long lastUsed;
    private bool lostConnection;
    private bool idleReopen;   // the server closed the idle session: reopening it is routine, not worth an Information line

    public NotificationSmtpClient Client { get; } = new(protocolLogger)
    {
        LocalDomain = options.HeloName,
        Timeout = (int)options.CommandTimeout.TotalMilliseconds,
        CheckCertificateRevocation = options.CheckCertificateRevocation,
    };

    /// <summary>Opens the session unless one is open and fit for use; true when an open one is reused.</summary>
    public async Task<bool> OpenAsync(CancellationToken cancellationToken)
    {
        if (Client.IsConnected && await IsFitAsync(cancellationToken))
        {
            return true;
        }

        bool quiet = idleReopen;
        idleReopen = false;
        if (lostConnection && !quiet)
        {
            SendingLog.Reconnecting(logger, options.Host, options.Port);
        }

        // Until the session is set up, a failure counts as a lost connection for the next attempt's log.
        lostConnection = true;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.ConnectTimeout);
        try
        {
            await Client.ConnectAsync(options.Host, options.Port, options.Security.ToSecureSocketOptions(), timeout.Token);
            await AuthenticateAsync(cancellationToken);
        }
        catch (Exception e) when (e is SmtpSendException || SmtpFailures.IsSessionFailure(e))
        {
            await DropAsync("connect", e);
            throw SmtpFailures.Classify(e, inTransaction: false, finalDataWritten: false, cancellationToken.IsCancellationRequested, options)
                ?? Rethrow(e);
        }

        if (!Client.IsSecure && options.Security == SmtpSecurity.StartTlsWhenAvailable)
        {
            SendingLog.StartTlsNotOffered(logger, options.Host, options.Port);
        }

        if (!quiet)
        {
            SendingLog.Connected(logger, options.Host, options.Port, Client.IsSecure, Client.Capabilities.ToString());
        }

        lostConnection = false;
        MarkUsed();
        return false;
    }

    public void MarkUsed() => lastUsed = Stopwatch.GetTimestamp();

    /// <summary>Counts an idle session found closed by the server (its NOOP failed, or a reused session's first command).</summary>
    public void IdleReconnected()
    {
        idleReopen = true;
        idleReconnected?.Invoke();
    }

    /// <summary>Closes the connection after a failure, without QUIT; the next send reopens it.</summary>
    public async Task DropAsync(string step, Exception? reason)
    {
        lostConnection = true;
        if (reason is not null)
        {
            SendingLog.ConnectionDropped(logger, options.Host, options.Port, step, reason);
        }

        if (Client.IsConnected)
        {
            await Client.DisconnectAsync(quit: false, CancellationToken.None);
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (Client.IsConnected)
            {
                using var timeout = new CancellationTokenSource(QuitTimeout);
                await Client.DisconnectAsync(quit: true, timeout.Token);
            }
        }
        catch (Exception e) when (SmtpFailures.IsSessionFailure(e))
        {
            SendingLog.QuitFailed(logger, options.Host, options.Port, e);
        }
        finally
        {
            Client.Dispose();
        }
    }

    /// <summary>Keeps the original stack trace when an exception goes on as it is (a cancellation, our own refusal).</summary>
    public static Exception Rethrow(Exception e)
    {
        ExceptionDispatchInfo.Throw(e);
        return e;
    }

    private async Task AuthenticateAsync(CancellationToken cancellationToken)
    {
        if (string.IsNullOrEmpty(options.Username))
        {
            return;
        }

        if (!Client.IsSecure && !options.AllowAuthWithoutTls)
        {
            throw new SmtpSendException(SendFailureKind.Transient, null,
                "Refusing to send SMTP credentials over an unencrypted connection "
                + "(the server offered no STARTTLS; set Smtp:AllowAuthWithoutTls to allow it).");
        }

        await Client.AuthenticateAsync(options.Username, options.Password ?? "", cancellationToken);
    }

    private async Task<bool> IsFitAsync(CancellationToken cancellationToken)
    {
        if (Stopwatch.GetElapsedTime(lastUsed) < options.IdleCheckAfter)
        {
            return true;
        }

        try
        {
            await Client.NoOpAsync(cancellationToken);
            return true;
        }
        catch (Exception e) when (SmtpFailures.IsSessionFailure(e) && !cancellationToken.IsCancellationRequested)
        {
            // Not a warning: a relay that closed an idle session is normal; the next open reconnects at once.
            SendingLog.IdleNoOpFailed(logger, options.Host, options.Port, e.Message);
            await DropAsync("NOOP", null);
            IdleReconnected();
            return false;
        }
    }
}
