namespace Notifications.Shared.Data.Operations;

/// <summary>What a search text is matched against.</summary>
public enum NotificationSearchKind
{
    /// <summary>The notification id.</summary>
    Id,

    /// <summary>The app's idempotency key (exact).</summary>
    IdempotencyKey,

    /// <summary>The recipient address (exact): a waiting outbox row's, or a fan-out delivery's.</summary>
    Recipient,

    /// <summary>The app's subscriber id (exact): a waiting row for it, its fan-out job, and its deliveries.</summary>
    Subscriber,
}
