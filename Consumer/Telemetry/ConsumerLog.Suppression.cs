using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Suppression list and unsubscribe messages of the consumer (EventIds 4220-4239).</summary>
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

    [LoggerMessage(4225, LogLevel.Information, "One-click unsubscribe from notification {NotificationId} (new entry: {Added})")]
    public static partial void Unsubscribed(ILogger logger, long notificationId, bool added);

    [LoggerMessage(4226, LogLevel.Warning, "Unsubscribe request refused ({Status}): {Reason} (from {Remote})")]
    public static partial void UnsubscribeRefused(ILogger logger, int status, string reason, string? remote);

    [LoggerMessage(4227, LogLevel.Error, "One-click unsubscribe from notification {NotificationId} not recorded (answered 503)")]
    public static partial void UnsubscribeFailed(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4228, LogLevel.Information, "Unsubscribe: bulk mail carries no List-Unsubscribe header (set Unsubscribe:UrlTemplate and a signing key, or Unsubscribe:Mailto)")]
    public static partial void UnsubscribeHeadersOff(ILogger logger);
}
