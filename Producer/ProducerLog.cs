using Microsoft.Extensions.Logging;

namespace Notifications.Producer;

/// <summary>Log messages of the producer (EventIds 2000-2099).</summary>
internal static partial class ProducerLog
{
    [LoggerMessage(2000, LogLevel.Warning, "Batch of the {Lane} lane failed and was rolled back; its rows return to the outbox. Next try in about {Delay}")]
    public static partial void BatchFailed(ILogger logger, string lane, TimeSpan delay, Exception exception);

    // A database or broker not reachable (yet): one line with the reason, no stack trace (Shared's ConnectionFailure).
    [LoggerMessage(2100, LogLevel.Warning, "Batch of the {Lane} lane failed: {Reason}; its rows stay in the outbox. Next try in about {Delay}")]
    public static partial void BatchFailedUnreachable(ILogger logger, string lane, string reason, TimeSpan delay);

    [LoggerMessage(2003, LogLevel.Information, "The producer's broker user may not declare the topology ({Reply}); it checks passively that the consumers have declared it")]
    public static partial void TopologyCheckedOnly(ILogger logger, string reply);

    [LoggerMessage(2001, LogLevel.Information, "Producer stopped after publishing {Published} notifications")]
    public static partial void Stopped(ILogger logger, long published);

    [LoggerMessage(2002, LogLevel.Warning, "Outbox row {NotificationId} has a traceparent that is not W3C ('{TraceParent}'); it is published without it. Logged once, later ones are ignored silently")]
    public static partial void InvalidTraceParent(ILogger logger, long notificationId, string traceParent);
}
