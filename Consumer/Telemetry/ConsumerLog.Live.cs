using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Live channel messages of the consumer (EventIds 4250-4254).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4250, LogLevel.Debug, "Notification {NotificationId} (push copy of a live delivery) not sent: {Reason}")]
    public static partial void LiveAcked(ILogger logger, long notificationId, string reason);

    [LoggerMessage(4251, LogLevel.Warning, "Subscriber {Subscriber} has more than {Cap} live notifications unacked: its {Expired} oldest expired, not sent again")]
    public static partial void LivePendingCapped(ILogger logger, string subscriber, int cap, int expired);
}
