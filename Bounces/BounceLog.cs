using Microsoft.Extensions.Logging;

namespace Notifications.Bounces;

/// <summary>Log messages of the bounce receiver (EventIds 7700-7799).</summary>
internal static partial class BounceLog
{
    [LoggerMessage(7700, LogLevel.Information, "Bounce receiver listening for mail to @{Domain} on {Endpoint} (STARTTLS: {StartTls}, largest message {MaxBytes} bytes)")]
    public static partial void Listening(ILogger logger, string domain, string endpoint, bool startTls, int maxBytes);

    [LoggerMessage(7701, LogLevel.Warning, "Refused RCPT TO <{Recipient}> from {Remote}: not the bounce domain (550 5.1.1)")]
    public static partial void RecipientRefused(ILogger logger, string recipient, string? remote);

    [LoggerMessage(7702, LogLevel.Warning, "Refused a message from {Remote}: larger than {MaxBytes} bytes (552 5.3.4)")]
    public static partial void TooLarge(ILogger logger, int maxBytes, string? remote);

    [LoggerMessage(7703, LogLevel.Information, "Report for notification {NotificationId}: {Outcome} of {Recipient} ({Status}), suppressed as {SuppressedAs}")]
    public static partial void Recorded(ILogger logger, long notificationId, string outcome, string recipient, string? status, string? suppressedAs);

    [LoggerMessage(7704, LogLevel.Warning, "Dropped a message from <{Sender}> to <{Recipients}> ({Bytes} bytes, notification {NotificationId}): {Reason}")]
    public static partial void Dropped(ILogger logger, string reason, string? sender, string recipients, long bytes, long? notificationId);

    [LoggerMessage(7705, LogLevel.Error, "Report for notification {NotificationId} not recorded (answered 451, the sender retries)")]
    public static partial void NotRecorded(ILogger logger, long? notificationId, Exception exception);

    [LoggerMessage(7706, LogLevel.Warning, "SMTP session from {Remote} ended by an error")]
    public static partial void SessionFaulted(ILogger logger, string? remote, Exception exception);

    [LoggerMessage(7707, LogLevel.Critical, "Bounce receiver cannot listen on {Address}:{Port}")]
    public static partial void ListenFailed(ILogger logger, string address, int port, Exception exception);
}
