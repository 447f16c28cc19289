namespace Notifications.Samples.Orders;

/// <summary>The answer: the order's id and the notification's (the first one's, for a repeated idempotency key).</summary>
internal sealed record OrderPlaced(long OrderId, long NotificationId);
