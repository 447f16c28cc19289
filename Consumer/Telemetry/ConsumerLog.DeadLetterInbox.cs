using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>The dead-letter inbox: what the broker dead-lettered on its own, recorded and moved (EventIds 4480-4499).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4480, LogLevel.Information, "Dead-letter inbox: recording what the broker dead-letters into '{Inbox}' in the dead_letter table, then moving it to '{DeadLetterQueue}'")]
    public static partial void InboxStarted(ILogger logger, string inbox, string deadLetterQueue);

    [LoggerMessage(4481, LogLevel.Warning, "The broker dead-lettered a message of {Items} notification(s) (first id {NotificationId}): {Reason}; recorded and moved to the dead-letter queue")]
    public static partial void BrokerDeadLetterRecorded(ILogger logger, int items, long? notificationId, string reason);

    [LoggerMessage(4482, LogLevel.Warning, "Recording or moving a broker dead letter failed (try {Try}); the message stays unacked in the inbox, next try in {Pause}")]
    public static partial void BrokerDeadLetterFailed(ILogger logger, int @try, TimeSpan pause, Exception exception);

    [LoggerMessage(4483, LogLevel.Warning, "Dead-letter inbox channel closed on its own; reopened")]
    public static partial void InboxChannelReopened(ILogger logger);

    [LoggerMessage(4484, LogLevel.Warning, "Dead-letter inbox '{Inbox}' not consumed: opening its channel failed; next try in 5 s")]
    public static partial void InboxOpenFailed(ILogger logger, string inbox, Exception exception);
}
