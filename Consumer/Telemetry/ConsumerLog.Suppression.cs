using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Suppression list and List-Unsubscribe messages of the consumer (EventIds 4220-4239; 4225-4227 were the one-click endpoint's, now the unsubscribe process's).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4220, LogLevel.Information, "Suppression list loaded: {Count} entries in force")]
    public static partial void SuppressionLoaded(ILogger logger, int count);

    [LoggerMessage(4229, LogLevel.Information, "Suppression list longer than Suppression:CacheEntries ({Capacity}): keys are looked up in the table on demand, the answers kept in memory up to that many")]
    public static partial void SuppressionOnDemand(ILogger logger, int capacity);

    [LoggerMessage(4221, LogLevel.Warning, "Suppression list refresh failed (loaded before: {Loaded}); the copy in memory stays in use, next try at the next interval")]
    public static partial void SuppressionRefreshFailed(ILogger logger, bool loaded, Exception exception);

    [LoggerMessage(4222, LogLevel.Debug, "Notification {NotificationId} not sent: suppressed by '{Key}'")]
    public static partial void Suppressed(ILogger logger, long notificationId, string key);

    [LoggerMessage(4223, LogLevel.Information, "Notification {NotificationId}: the server refused the recipient for good; the address is suppressed (hard_bounce): {Reply}")]
    public static partial void HardBounceSuppressed(ILogger logger, long notificationId, string reply);

    [LoggerMessage(4224, LogLevel.Warning, "Notification {NotificationId}: hard bounce not written to the suppression list (it is dead-lettered all the same)")]
    public static partial void HardBounceNotRecorded(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4228, LogLevel.Information, "Unsubscribe: bulk mail carries no List-Unsubscribe header (set Unsubscribe:UrlTemplate and Unsubscribe:Keys, or Unsubscribe:Mailto)")]
    public static partial void UnsubscribeHeadersOff(ILogger logger);
}
