using Microsoft.Extensions.Logging;

namespace Notifications.Shared;

/// <summary>Log messages of the retention cleanup (EventIds 1070-1079).</summary>
internal static partial class SharedLog
{
    [LoggerMessage(1070, LogLevel.Information, "Retention cleanup: deleted {DeliveryLogRows} delivery-log and {DeadLetterRows} dead-letter rows, {IdempotencyKeys} idempotency keys, {FanOuts} finished fan-outs with {FanOutDeliveries} delivery rows, {ExpiredLive} expired live notifications and {OutcomeEvents} outcome events in {Batches} batches ({Elapsed})")]
    public static partial void RetentionRan(
        ILogger logger, long deliveryLogRows, long deadLetterRows, long idempotencyKeys, long fanOuts, long fanOutDeliveries, long expiredLive, long outcomeEvents, int batches,
        TimeSpan elapsed);

    [LoggerMessage(1071, LogLevel.Warning, "Retention cleanup failed; trying again in {Interval}")]
    public static partial void RetentionFailed(ILogger logger, TimeSpan interval, Exception exception);

    // The database not reachable (yet): one line with the reason (Observability.ConnectionFailure), no stack trace.
    [LoggerMessage(1100, LogLevel.Warning, "Retention cleanup failed: {Reason}; trying again in {Interval}")]
    public static partial void RetentionFailedUnreachable(ILogger logger, string reason, TimeSpan interval);
}
