using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// Log messages of the webhook channel (EventIds 4300-4329). Secrets are never among their arguments, nor endpoint URLs
/// (their path or query may hold a token): endpoints are named by name and host.
/// </summary>
internal static partial class WebhookLog
{
    [LoggerMessage(4300, LogLevel.Information, "Webhook endpoints loaded: {Count}")]
    public static partial void Loaded(ILogger logger, int count);

    [LoggerMessage(4301, LogLevel.Warning, "Webhook endpoint refresh failed (loaded before: {Loaded}); the copy in memory stays in use, next try at the next interval")]
    public static partial void RefreshFailed(ILogger logger, bool loaded, Exception exception);

    [LoggerMessage(4302, LogLevel.Warning, "Webhook endpoint {Name} answered 410 Gone to notification {NotificationId}; the endpoint is disabled: {Reason}")]
    public static partial void EndpointGone(ILogger logger, string name, long notificationId, string reason);

    [LoggerMessage(4303, LogLevel.Warning, "Webhook endpoint {Name}: the 410 Gone could not be recorded in the table (the notification is dead-lettered all the same)")]
    public static partial void DisableFailed(ILogger logger, string name, Exception exception);

    [LoggerMessage(4304, LogLevel.Information, "Webhook host {Host} answered {Status} with Retry-After: sends to it wait until {Until:O}")]
    public static partial void Paused(ILogger logger, string host, int status, DateTimeOffset until);

    [LoggerMessage(4305, LogLevel.Warning, "Webhook endpoint {Name} not reached: {Reason}")]
    public static partial void PrivateAddressRefused(ILogger logger, string name, string reason);
}
