namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Sends one email at a time over a connection kept open between sends. Not thread-safe: each
/// concurrent handler owns its own instance.
/// </summary>
internal interface IEmailSender : IAsyncDisposable
{
    /// <summary>
    /// Returns when <paramref name="message"/> may be sent under the fleet's rate limits (see
    /// <see cref="IChannelSender.WaitTurnAsync"/>); nothing to wait for unless rate limits are configured.
    /// </summary>
    Task WaitTurnAsync(EmailMessage message, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Sends <paramref name="message"/>; throws <see cref="SmtpSendException"/> on failure.</summary>
    Task SendAsync(EmailMessage message, CancellationToken cancellationToken);
}
