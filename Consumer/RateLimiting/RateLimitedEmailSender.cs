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
/// <remarks>
/// After its slots, a send enters each limit's send window (<see cref="FleetRateLimiter.EnterWindowAsync"/>) and leaves it when
/// the server has answered: the window counts sends from their start to their end, so what the receiver sees in any second is
/// bounded, not only when the sends began (issue 27, item 19). A send the relay breaker turns away after its turn leaves the
/// windows at the next turn or when the sender is disposed.
/// </remarks>
internal sealed class RateLimitedEmailSender(IEmailSender inner, FleetRateLimiter limiter, RateLimitSettings settings) : IEmailSender
{
    // This handler's send in progress: its entries in the limits' windows (a handler sends one message at a time).
    private readonly List<long> _inWindows = new(2);

    public async Task WaitTurnAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        LeaveWindows();
        var domainLimit = RateLimitSettings.DomainOf(message.To) is { } domain && settings.Domains.TryGetValue(domain, out var rate)
            ? (Key: RateLimitSettings.DomainKey(domain), Rate: rate) : default((string Key, Rate Rate)?);
        if (settings.Relay is { } relay)
        {
            await limiter.WaitAsync(RateLimitSettings.RelayKey, relay, cancellationToken);
        }

        if (domainLimit is { } limit)
        {
            await limiter.SpendAsync(limit.Key, limit.Rate, cancellationToken);
        }

        // The windows after the slots: a full window holds the send back without spending or giving up any slot.
        if (settings.Relay is { } relayRate && await limiter.EnterWindowAsync(RateLimitSettings.RelayKey, relayRate, cancellationToken) is { } relayEntry)
        {
            _inWindows.Add(relayEntry);
        }

        if (domainLimit is { } domainWindow && await limiter.EnterWindowAsync(domainWindow.Key, domainWindow.Rate, cancellationToken) is { } domainEntry)
        {
            _inWindows.Add(domainEntry);
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
        finally
        {
            LeaveWindows();
        }
    }

    public ValueTask DisposeAsync()
    {
        LeaveWindows();
        return inner.DisposeAsync();
    }

    // The send in progress ended (or never began): its entries leave the windows, recorded off this handler's path.
    private void LeaveWindows()
    {
        foreach (long entry in _inWindows)
        {
            limiter.LeaveWindow(entry);
        }

        _inWindows.Clear();
    }

    private string? Destination(EmailMessage message) =>
        RateLimitSettings.DomainOf(message.To) is { } domain && settings.Domains.ContainsKey(domain)
            ? RateLimitSettings.DomainKey(domain)
            : settings.Relay is null ? null : RateLimitSettings.RelayKey;
}
