using Notifications.Consumer.Channels.Email;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// Around a handler's sender: before every send (<see cref="WaitTurnAsync"/>, outside the relay's breaker and its send
/// timeout) it waits for its slot under <c>RateLimits:Relay</c> (when set), and a send to a limited domain spends the
/// domain's slot held for it (or waits for a new one); a "slow down" reply lowers the rate of its destination for the whole
/// fleet — the recipient's domain when that domain has a limit, else the relay when it has one. The reply is rethrown marked
/// <see cref="Channels.SendFailedException.HandledByRateLimiter"/>: the message takes the ordinary retry path, and the relay breaker
/// leaves the pacing to the limiter (it would otherwise stop every domain for its break, and the slow-down would end unseen).
/// </summary>
internal sealed class RateLimitedEmailSender(IEmailSender inner, FleetRateLimiter limiter, RateLimitSettings settings) : IEmailSender
{
    public async Task WaitTurnAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        if (settings.Relay is { } relay)
        {
            await limiter.WaitAsync(RateLimitSettings.RelayKey, relay, cancellationToken);
        }

        if (RateLimitSettings.DomainOf(message.To) is { } domain && settings.Domains.TryGetValue(domain, out var rate))
        {
            await limiter.SpendAsync(RateLimitSettings.DomainKey(domain), rate, cancellationToken);
        }
    }

    public async Task SendAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        try
        {
            await inner.SendAsync(message, cancellationToken);
        }
        catch (SmtpSendException ex) when (SlowDownReplies.IsSlowDown(ex) && Destination(message) is { } key)
        {
            await limiter.SlowDownAsync(key, ex.Message, cancellationToken);
            throw new SmtpSendException(ex.Kind, ex.ReplyCode, ex.Message, ex) { HandledByRateLimiter = true };
        }
    }

    public ValueTask DisposeAsync() => inner.DisposeAsync();

    private string? Destination(EmailMessage message) =>
        RateLimitSettings.DomainOf(message.To) is { } domain && settings.Domains.ContainsKey(domain)
            ? RateLimitSettings.DomainKey(domain)
            : settings.Relay is null ? null : RateLimitSettings.RelayKey;
}
