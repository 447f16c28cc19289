using MailKit.Net.Smtp;
using Notifications.Consumer.Channels.Email.Attachments;
using Notifications.Consumer.Channels.Email.Unsubscribe;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Templates;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Email over SMTP: a template rendered at send time, attached files loaded from the database, List-Unsubscribe on bulk mail, one SMTP connection per handler, the
/// relay's breaker (the consumer stops consuming while it is open), rate limits per recipient domain, and a 5xx to RCPT TO
/// suppressing the address.
/// </summary>
internal sealed class EmailChannel(
    RelayBreaker relay, NotificationRenderer renderer, UnsubscribeLinks unsubscribe, EmailSenderFactory senders, AttachedFiles attachments)
    : IChannel
{
    public string Name => NotificationChannels.Email;

    public RelayBreaker BreakerFor(NotificationMessage message) => relay;

    /// <summary>Never: an SMTP server's "slow down" reply lowers the fleet's rate instead (<see cref="RateLimitedEmailSender"/>).</summary>
    public DateTimeOffset? PausedUntil(NotificationMessage message) => null;

    public string? RateLimitDomain(NotificationMessage message) =>
        message.Recipient is { } recipient ? RateLimitSettings.DomainOf(recipient) : null;

    public async ValueTask<Prepared> PrepareAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        // A templated notification is rendered here, at send time; one that cannot be rendered is dead-lettered with why.
        var (email, unrenderable) = await renderer.PrepareAsync(message, cancellationToken);
        if (email is null)
        {
            return Prepared.Refused(unrenderable!);
        }

        if (message.Attachments is not null)
        {
            // Loaded here, before the delivery log's mark and the send: a mail is never sent without its files.
            var (files, refused) = await attachments.LoadAsync(message, cancellationToken);
            if (files is null)
            {
                return Prepared.Refused(refused!);
            }

            email = email with { Attachments = files };
        }

        if (unsubscribe.HeadersFor(message) is { } systemHeaders)
        {
            // Bulk mail only: the other notifications keep the email as rendered, without a copy on the hot path.
            email = email with { SystemHeaders = systemHeaders };
        }

        return Prepared.Ready(email);
    }

    /// <summary>
    /// A 5xx reply to RCPT TO: the server refused this recipient for good (the mailbox does not exist, or will not take
    /// mail). A 5xx to MAIL FROM or DATA is about the sender or the message, not the address, and suppresses nothing.
    /// </summary>
    public GoneRecipient? GoneFor(Outgoing outgoing, SendFailedException failure) =>
        IsHardBounce(failure) ? new GoneRecipient(((EmailMessage)outgoing).To, SuppressionReasons.HardBounce, failure.Message) : null;

    public IChannelSender CreateSender() => new Sender(senders.Create());

    /// <inheritdoc cref="GoneFor"/>
    public static bool IsHardBounce(Exception ex) =>
        ex is SmtpSendException { Kind: SendFailureKind.Permanent, InnerException: SmtpCommandException { ErrorCode: SmtpErrorCode.RecipientNotAccepted } rejected }
        && (int)rejected.StatusCode is >= 500 and < 600;

    // The handler's own SMTP connection, behind the channel-agnostic face.
    private sealed class Sender(IEmailSender email) : IChannelSender
    {
        public Task WaitTurnAsync(Outgoing outgoing, CancellationToken cancellationToken) => email.WaitTurnAsync((EmailMessage)outgoing, cancellationToken);

        public Task SendAsync(Outgoing outgoing, CancellationToken cancellationToken) => email.SendAsync((EmailMessage)outgoing, cancellationToken);

        public ValueTask DisposeAsync() => email.DisposeAsync();
    }
}
