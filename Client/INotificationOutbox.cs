using System.Data.Common;

namespace Notifications.Client;

/// <summary>
/// The outbox as a service (<see cref="NotificationsClientServiceCollectionExtensions.AddNotificationsClient"/>):
/// enqueue in the app's transaction or in one of its own, and read a notification's status. A singleton, safe to share.
/// </summary>
public interface INotificationOutbox
{
    /// <summary>
    /// Inserts <paramref name="notification"/> in <paramref name="transaction"/>, the app's own (on the configured
    /// provider's connection), so it commits or rolls back with the business change; returns its id. As
    /// <see cref="NotificationOutbox.EnqueueAsync"/>: the trace parent, and the idempotency key's first id.
    /// </summary>
    /// <exception cref="ArgumentException">A field is refused (as <see cref="NotificationOutbox.EnqueueAsync"/>), or the
    /// transaction is not on the configured provider's connection.</exception>
    Task<long> EnqueueAsync(DbTransaction transaction, NewNotification notification, CancellationToken cancellationToken = default);

    /// <summary>
    /// For an app with no business transaction: opens a connection from the configured source, inserts
    /// <paramref name="notification"/> in a transaction of its own and commits; returns its id.
    /// </summary>
    /// <exception cref="ArgumentException">A field is refused (as <see cref="NotificationOutbox.EnqueueAsync"/>); checked before any connection is opened.</exception>
    Task<long> EnqueueAsync(NewNotification notification, CancellationToken cancellationToken = default);

    /// <summary>
    /// The status of notification <paramref name="id"/> (the schema's <c>notification_status</c> function, which the
    /// <c>notifications_app</c> role may execute); <see cref="NotificationState.Unknown"/> if the database knows nothing of it.
    /// </summary>
    Task<NotificationStatus> GetStatusAsync(long id, CancellationToken cancellationToken = default);
}
