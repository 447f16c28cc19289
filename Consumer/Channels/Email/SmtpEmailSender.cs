using MailKit.Net.Smtp;
using Microsoft.Extensions.Logging;
using MimeKit;
using Notifications.Shared.Bounces;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Sends through one MailKit <see cref="SmtpClient"/> (<see cref="SmtpSession"/>), connected on the first send
/// and kept for the next. A refused transaction leaves the session open (MailKit sends RSET); an I/O error or
/// timeout drops it and the next send reconnects. Not thread-safe: one instance per concurrent handler.
/// </summary>
internal sealed class SmtpEmailSender : IEmailSender
{
    // Built once: MailKit clones the options it is given for each message anyway.
    private static readonly FormatOptions Ascii = FormatOptions.Default.Clone();
    private static readonly FormatOptions International = new() { International = true };

    private readonly SmtpOptions options;
    private readonly ILogger<SmtpEmailSender> logger;
    private readonly FinalDataTracker tracker = new();
    private readonly SmtpSession session;
    private readonly MimeMessageBuilder builder;
    private readonly MailboxAddress from;
    private readonly bool fromNeedsSmtpUtf8;
    private readonly DkimMessageSigner? dkim;
    private readonly ReturnPath? returnPath;
    private int busy;
    private bool disposed;

    /// <param name="options">The relay.</param>
    /// <param name="logger">The sender's logger.</param>
    /// <param name="idleReconnected">Called each time an idle connection is found closed and reopened (a metric).</param>
    /// <param name="dkim">Signs each message once it is final, if DKIM is configured.</param>
    /// <param name="returnPath">
    /// When set (Bounces:Domain), each message's envelope sender is its notification's signed return path, so that a DSN
    /// coming back later names the notification; else Smtp:From's address. The From header is Smtp:From either way.
    /// </param>
    public SmtpEmailSender(
        SmtpOptions options, ILogger<SmtpEmailSender> logger, Action? idleReconnected = null, DkimMessageSigner? dkim = null, ReturnPath? returnPath = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        this.options = options;
        this.dkim = dkim;
        this.returnPath = returnPath;
        this.logger = logger;
        session = new SmtpSession(options, tracker, logger, idleReconnected);
        builder = new MimeMessageBuilder(options.From, options.MessageIdDomain);
        from = EnvelopeAddress.Resolve(FromAddress.Parse(options.From).Address, "Smtp:From", serverOffersSmtpUtf8: true, out fromNeedsSmtpUtf8);
    }

    private NotificationSmtpClient Client => session.Client;

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
            bool reused = await session.OpenAsync(cancellationToken);
            if (!await TrySendAsync(message, staleRetryAllowed: reused, cancellationToken))
            {
                SendingLog.IdleConnectionClosed(logger, options.Host, options.Port);
                session.IdleReconnected();
                await session.OpenAsync(cancellationToken);
                await TrySendAsync(message, staleRetryAllowed: false, cancellationToken);
            }

            session.MarkUsed();
        }
        finally
        {
            Volatile.Write(ref busy, 0);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!disposed)
        {
            disposed = true;
            await session.DisposeAsync();
        }
    }

    // The return path is ASCII by construction (lowercase letters, digits, '+', '.', and a validated domain): no SMTPUTF8.
    private MailboxAddress EnvelopeSender(EmailMessage message) =>
        returnPath is null ? from : new MailboxAddress(string.Empty, returnPath.For(message.NotificationId));

    /// <summary>
    /// Runs one transaction. False when a reused session turned out closed by the server before it answered
    /// anything (an idle timeout or a restart): nothing was sent, and the caller reconnects and tries once more.
    /// </summary>
    private async Task<bool> TrySendAsync(EmailMessage message, bool staleRetryAllowed, CancellationToken cancellationToken)
    {
        bool smtpUtf8 = (Client.Capabilities & SmtpCapabilities.UTF8) != 0;
        if (fromNeedsSmtpUtf8 && !smtpUtf8)
        {
            // The configuration's fault, not the message's: every message would fail the same way.
            throw new SmtpSendException(SendFailureKind.Transient, null,
                $"Smtp:From '{options.From}' has a non-ASCII local part, which needs SMTPUTF8; the server does not offer it.");
        }

        MailboxAddress to = EnvelopeAddress.Resolve(message.To, "To", smtpUtf8, out bool toNeedsUtf8);
        HeaderFields fields = HeaderFields.Resolve(message, smtpUtf8);

        // Disposed at once: an undisposed MimeMessage goes through the finalizer queue, which cost more CPU than
        // building and writing it did (measured: 27 us a message without dispose, 9 us with).
        using MimeMessage mime = builder.Build(message, to, fields);
        FormatOptions format = fromNeedsSmtpUtf8 || toNeedsUtf8 || fields.NeedsSmtpUtf8 ? International : Ascii;
        dkim?.Sign(format, mime);
        tracker.Arm();
        try
        {
            await Client.SendAsync(format, mime, EnvelopeSender(message), fields.Recipients(to), cancellationToken);
            return true;
        }
        catch (Exception e) when (staleRetryAllowed && !tracker.ServerReplied && !cancellationToken.IsCancellationRequested
            && e is IOException or SmtpProtocolException)
        {
            await session.DropAsync("MAIL FROM", null);
            return false;
        }
        catch (Exception e) when (SmtpFailures.IsSessionFailure(e))
        {
            // MailKit keeps the session after a refused command (it sent RSET) and drops it after any other failure.
            if (!Client.IsConnected)
            {
                await session.DropAsync("transaction", e);
            }

            throw SmtpFailures.Classify(e, inTransaction: true, tracker.FinalDataWritten, cancellationToken.IsCancellationRequested, options)
                ?? SmtpSession.Rethrow(e);
        }
    }
}
