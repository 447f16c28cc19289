using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Channels.Push;

/// <summary>Log messages of the push channel (EventIds 4330-4359).</summary>
internal static partial class PushSendingLog
{
    [LoggerMessage(4330, LogLevel.Information, "Push providers: FCM {Fcm}, APNs {Apns}")]
    public static partial void Providers(ILogger logger, string fcm, string apns);

    [LoggerMessage(4331, LogLevel.Warning, "Push provider {Provider} answered {Status} (slow down); its next request waits {Wait}")]
    public static partial void SlowDown(ILogger logger, string provider, int status, TimeSpan wait);

    [LoggerMessage(4332, LogLevel.Warning, "Could not get an FCM access token; the send is retried")]
    public static partial void AccessTokenFailed(ILogger logger, Exception exception);

    [LoggerMessage(4333, LogLevel.Information, "Push provider {Provider} says device token of notification {NotificationId} is gone ({Status} {Reason})")]
    public static partial void TokenGone(ILogger logger, string provider, long notificationId, int status, string? reason);

    [LoggerMessage(4339, LogLevel.Warning, "Push:TrustedCertificateFile is deprecated ({Effect}): set Push:TrustedCertificatesFile instead; it reads the same file as roots trusted besides the system's, as Webhooks:TrustedCertificatesFile does")]
    public static partial void DeprecatedTrustKey(ILogger logger, string effect);
}
