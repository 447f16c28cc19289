namespace Notifications.Client.EntityFrameworkCore;

/// <summary>
/// A notification added to a <c>DbContext</c> with <see cref="DbContextNotifications.AddNotification"/>: the context's
/// next <c>SaveChangesAsync</c> inserts it in the transaction that saves the changes.
/// </summary>
public sealed class PendingNotification
{
    internal PendingNotification(NewNotification notification, OutboxValues values)
    {
        Notification = notification;
        Values = values;
    }

    /// <summary>What was added.</summary>
    public NewNotification Notification { get; }

    /// <summary>
    /// The notification's id (the first one's, for an idempotency key enqueued before): set when the <c>SaveChangesAsync</c>
    /// that inserted it has succeeded, null before. In a transaction of the app's own, it is real once that transaction commits.
    /// </summary>
    public long? Id { get; internal set; }

    internal OutboxValues Values { get; }
}
