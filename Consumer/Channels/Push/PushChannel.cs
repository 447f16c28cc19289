using Notifications.Consumer.Relay;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// Mobile push to FCM and APNs: the request body built (and its size checked) when the message is prepared, one breaker, one
/// Retry-After pause and one fleet rate-limit domain (its base URL's host) per provider, one shared HTTP/2 client per provider,
/// and an unregistered device token suppressing its recipient. docs/push.md.
/// </summary>
internal sealed class PushChannel(PushProviders providers, PushSender sender) : IChannel
{
    public string Name => NotificationChannels.Push;

    public RelayBreaker BreakerFor(NotificationMessage message) => ProviderOf(message).Link.Breaker;

    /// <summary>Until when the provider asked (Retry-After) not to be sent anything.</summary>
    public DateTimeOffset? PausedUntil(NotificationMessage message) => ProviderOf(message).Link.Pause.PausedUntil;

    public string? RateLimitDomain(NotificationMessage message) => ProviderOf(message).Link.Host;

    public ValueTask<Prepared> PrepareAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        if (!PushRules.TryParseRecipient(message.Recipient, out string name, out string token, out string? invalid))
        {
            return ValueTask.FromResult(Prepared.Refused(invalid!));
        }

        var provider = providers.For(name);
        if (!provider.Enabled)
        {
            return ValueTask.FromResult(Prepared.Refused($"push provider '{name}' is not configured (docs/push.md)"));
        }

        var push = provider.Prepare(message, token, PushData.Entries(message.Data), out string? refused);
        return ValueTask.FromResult(push is null ? Prepared.Refused(refused!) : Prepared.Ready(push));
    }

    public GoneRecipient? GoneFor(Outgoing outgoing, SendFailedException failure) =>
        failure is PushSendException { Gone: true } gone
            ? new GoneRecipient(((PushNotification)outgoing).Recipient, SuppressionReasons.Unregistered, gone.Message)
            : null;

    public IChannelSender CreateSender() => sender;

    private IPushProvider ProviderOf(NotificationMessage message) =>
        providers.For(PushRules.TryParseRecipient(message.Recipient, out string name, out _, out _) ? name : PushRules.Fcm);
}
