using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Preference messages of the consumer (EventIds 4245-4249).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4245, LogLevel.Debug, "Notification {NotificationId} not sent: opted out ({Reason})")]
    public static partial void OptedOut(ILogger logger, long notificationId, string reason);
}
