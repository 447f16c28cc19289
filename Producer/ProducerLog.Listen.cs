using Microsoft.Extensions.Logging;

namespace Notifications.Producer;

/// <summary>Messages of the urgent lane's listener (EventIds 4400-4419).</summary>
internal static partial class ProducerLog
{
    [LoggerMessage(4400, LogLevel.Information, "Listening for urgent rows of schema {Schema} on channel {Channel}; the urgent lane polls every {Interval} at most meanwhile, as a safety net")]
    public static partial void UrgentListening(ILogger logger, string schema, string channel, TimeSpan interval);

    [LoggerMessage(4401, LogLevel.Warning, "The urgent lane's listen connection failed; the lane polls every {Interval} at most until it listens again. Next try in about {Delay}")]
    public static partial void UrgentListenFailed(ILogger logger, TimeSpan interval, TimeSpan delay, Exception exception);

    // The connection lost or refused (a terminated backend, a restarting server): one line with the reason, no stack trace.
    [LoggerMessage(4402, LogLevel.Warning, "The urgent lane's listen connection failed: {Reason}; the lane polls every {Interval} at most until it listens again. Next try in about {Delay}")]
    public static partial void UrgentListenLost(ILogger logger, string reason, TimeSpan interval, TimeSpan delay);

    [LoggerMessage(4403, LogLevel.Information, "No enabled trigger outbox_notify_urgent on {Schema}.outbox (db/postgres/019): nothing would notify, so the urgent lane polls every {Interval} at most; looking again every {Recheck}")]
    public static partial void UrgentTriggerMissing(ILogger logger, string schema, TimeSpan interval, TimeSpan recheck);

    [LoggerMessage(4404, LogLevel.Information, "Not listening for urgent rows ({Reason}); the urgent lane polls every {Interval} at most")]
    public static partial void UrgentListenOff(ILogger logger, string reason, TimeSpan interval);

    [LoggerMessage(4405, LogLevel.Warning, "UNLISTEN on the urgent lane's listen connection failed before it was closed; the connection is dropped instead of pooled")]
    public static partial void UrgentUnlistenFailed(ILogger logger, Exception exception);
}
