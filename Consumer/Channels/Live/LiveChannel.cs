using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Live;

/// <summary>
/// An app's own live connection (docs/live.md): the notification is written pending for its subscriber
/// (<c>live_pending</c>), then published to the live exchange under the subscriber, where the gateway node holding one of the
/// subscriber's connections takes it; with none connected it is unroutable and waits in its row for the next connect. No
/// rate limit, no suppression by address; one breaker over the database and broker it writes to.
/// </summary>
internal sealed class LiveChannel(
    LiveSender sender, ConsumerOptions consumer, IOptions<LiveOptions> options, IOptions<RelayOptions> relay, ConsumerMetrics metrics,
    TimeProvider time, ILogger<LiveChannel> logger) : IChannel
{
    // Not gated: an open breaker parks live notifications; email and the other channels go on.
    private readonly RelayBreaker _breaker = new("live", relay.Value, gated: false, metrics, time, logger);

    public string Name => NotificationChannels.Live;

    public RelayBreaker BreakerFor(NotificationMessage message) => _breaker;

    public DateTimeOffset? PausedUntil(NotificationMessage message) => null;

    public string? RateLimitDomain(NotificationMessage message) => null;

    // The pipeline validated the message (NotificationValidator, LiveRules): its recipient is a subscriber id.
    public ValueTask<Prepared> PrepareAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        var row = new LivePending(
            message.Id, message.Recipient!, NullIfEmpty(message.Subject), NullIfEmpty(message.Body), message.Data, message.ExpiresAt ?? message.CreatedAt + options.Value.PendingFor,
            consumer.DeliveryMode == Pipeline.DeliveryMode.AtMostOnce);
        var frame = LiveFrames.Notification(message.Id, row.Subject, row.Body, row.Data);
        // To a topic (LiveRules checked the shape): one broadcast row, not a pending row per subscriber.
        var broadcast = message.LiveBroadcast == true && LiveRules.BroadcastTopic(message.Recipient) is { } topic
            ? new LiveBroadcast(message.Id, topic, message.Category, row.Subject, row.Body, row.Data, row.ExpiresAt!.Value, row.AtMostOnce)
            : null;
        return ValueTask.FromResult(Prepared.Ready(new LiveNotification(message.Id, message.CreatedAt, row, frame, broadcast)));
    }

    // An app's connection has no address to suppress.
    public GoneRecipient? GoneFor(Outgoing outgoing, SendFailedException failure) => null;

    public IChannelSender CreateSender() => sender;

    private static string? NullIfEmpty(string? value) => string.IsNullOrEmpty(value) ? null : value;
}
