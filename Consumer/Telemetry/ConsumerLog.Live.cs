using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Live channel messages of the consumer (EventIds 4250-4254).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4250, LogLevel.Debug, "Notification {NotificationId} (push copy of a live delivery) not sent: {Reason}")]
    public static partial void LiveAcked(ILogger logger, long notificationId, string reason);
}
