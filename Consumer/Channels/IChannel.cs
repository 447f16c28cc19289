using Notifications.Consumer.Relay;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels;

/// <summary>
/// One way out of the fleet (email, webhook, push): a folder under <c>Channels/</c>. The pipeline (decode, suppression,
/// rate-limit lanes, breaker, delivery log, ack, retries and dead letters, in either delivery mode) is the same for every
/// channel and asks the channel only what is here.
/// </summary>
internal interface IChannel
{
    /// <summary>The name in the outbox's <c>channel</c> column (<see cref="NotificationChannels"/>).</summary>
    string Name { get; }

    /// <summary>
    /// The breaker <paramref name="message"/>'s send goes through: email's is the relay's, which the consumer stops consuming
    /// for while it is open (<see cref="RelayBreaker.Gated"/>); an HTTP channel's is its endpoint's or provider's.
    /// </summary>
    RelayBreaker BreakerFor(NotificationMessage message);

    /// <summary>
    /// Until when <paramref name="message"/>'s destination asked not to be sent anything (a 429 or 503 with Retry-After), or
    /// null when it did not: the pipeline parks the message until then, unspent, and no handler waits for it.
    /// </summary>
    DateTimeOffset? PausedUntil(NotificationMessage message);

    /// <summary>The rate-limit domain (a key of <c>RateLimits:Domains</c>) <paramref name="message"/> counts against, or null.</summary>
    string? RateLimitDomain(NotificationMessage message);

    /// <summary>
    /// The validated message made ready to send (a template rendered, an endpoint looked up), or why it cannot be sent:
    /// that reason goes with its dead letter.
    /// </summary>
    ValueTask<Prepared> PrepareAsync(NotificationMessage message, CancellationToken cancellationToken);

    /// <summary>
    /// The suppression entry a permanent <paramref name="failure"/> calls for (a 5xx to RCPT TO, an unregistered push token),
    /// or null: the pipeline adds it before the dead letter.
    /// </summary>
    GoneRecipient? GoneFor(Outgoing outgoing, SendFailedException failure);

    /// <summary>A sender for one handler: email's owns an SMTP connection; the HTTP channels share one client.</summary>
    IChannelSender CreateSender();
}

/// <summary>What <see cref="IChannel.PrepareAsync"/> made: the outgoing notification, or why there is none.</summary>
internal readonly record struct Prepared(Outgoing? Outgoing, string? Invalid)
{
    public static Prepared Ready(Outgoing outgoing) => new(outgoing, null);

    public static Prepared Refused(string reason) => new(null, reason);
}

/// <summary>Sends one notification of its channel. Not thread-safe unless the channel says so: each handler has its own.</summary>
internal interface IChannelSender : IAsyncDisposable
{
    /// <summary>
    /// Returns when <paramref name="outgoing"/> may be sent under the fleet's rate limits (a slot of each limit it counts
    /// against spent). Called right before <see cref="SendAsync"/> and outside the breaker: no send timeout cuts the wait and
    /// it is no failure. Nothing to wait for unless the channel has rate limits.
    /// </summary>
    Task WaitTurnAsync(Outgoing outgoing, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>
    /// Sends <paramref name="outgoing"/>; throws <see cref="SendFailedException"/> when it failed (its kind says whether
    /// it may be sent again), or <see cref="OperationCanceledException"/> when cancelled before it was handed over.
    /// </summary>
    Task SendAsync(Outgoing outgoing, CancellationToken cancellationToken);
}
