using Microsoft.Extensions.Logging;

namespace Notifications.Unsubscribe;

/// <summary>Log messages of the unsubscribe process (EventIds 5000-5019).</summary>
internal static partial class UnsubscribeLog
{
    [LoggerMessage(5000, LogLevel.Information, "Unsubscribe server listening on {Address}")]
    public static partial void ServerStarted(ILogger logger, Uri address);

    [LoggerMessage(5001, LogLevel.Critical, "Unsubscribe server cannot listen on {Address}:{Port}")]
    public static partial void ServerFailed(ILogger logger, string address, int port, Exception exception);

    [LoggerMessage(5002, LogLevel.Information, "Unsubscribed through the link of notification {NotificationId} (new entry: {Added})")]
    public static partial void Unsubscribed(ILogger logger, long notificationId, bool added);

    [LoggerMessage(5006, LogLevel.Information, "Link of notification {NotificationId}: {Subscribers} subscriber(s) of the address opted out of category {Category} by email (0: the bulk suppression entry instead)")]
    public static partial void OptedOut(ILogger logger, long notificationId, string category, int subscribers);

    [LoggerMessage(5003, LogLevel.Warning, "Unsubscribe {Method} refused ({Status} {Outcome}) from {Remote}")]
    public static partial void Refused(ILogger logger, string method, int status, string outcome, string? remote);

    [LoggerMessage(5004, LogLevel.Error, "Unsubscribe through the link of notification {NotificationId} not recorded (answered 503)")]
    public static partial void NotRecorded(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(5005, LogLevel.Warning, "Links of mail sent before the upgrade (readable tokens) are honoured while Unsubscribe:LegacySigningKey is set: remove it once the deprecation window is over (docs/suppression.md)")]
    public static partial void LegacyTokensHonoured(ILogger logger);
}
