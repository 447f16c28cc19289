using Microsoft.Extensions.Logging;

namespace Notifications.Producer.FanOut;

/// <summary>Log messages of the fan-out stage (EventIds 2200-2299).</summary>
internal static partial class FanOutLog
{
    [LoggerMessage(2200, LogLevel.Information, "Fan-out of notification {NotificationId} to {Audience} ({Channels}) started")]
    public static partial void Started(ILogger logger, long notificationId, string audience, string channels);

    [LoggerMessage(2201, LogLevel.Information, "Fan-out of notification {NotificationId} ended after {Pages} pages of this producer, {Deliveries} deliveries published by it")]
    public static partial void Ended(ILogger logger, long notificationId, int pages, long deliveries);

    // Debug: one a notification to a subscriber, 200 lines a second at 200 such rows; admin show has the same.
    [LoggerMessage(2206, LogLevel.Debug, "Fan-out of notification {NotificationId} to a subscriber ended in its claim, {Deliveries} deliveries published")]
    public static partial void EndedInClaim(ILogger logger, long notificationId, long deliveries);

    [LoggerMessage(2202, LogLevel.Warning, "Fan-out of notification {NotificationId}: the lease ran out and another producer took the job; this one leaves it")]
    public static partial void LeaseLost(ILogger logger, long notificationId);

    [LoggerMessage(2203, LogLevel.Warning, "Fan-out page failed; the job's lease runs out and the page is published again from its last confirmed page. Next try in about {Delay}")]
    public static partial void PageFailed(ILogger logger, TimeSpan delay, Exception exception);

    [LoggerMessage(2204, LogLevel.Warning, "Fan-out page failed: {Reason}. Next try in about {Delay}")]
    public static partial void PageFailedUnreachable(ILogger logger, string reason, TimeSpan delay);

    [LoggerMessage(2205, LogLevel.Error, "Fan-out of notification {NotificationId}: delivery {DeliveryId} was not published: {Reason}")]
    public static partial void DeliveryRejected(ILogger logger, long notificationId, long deliveryId, string reason);
}
