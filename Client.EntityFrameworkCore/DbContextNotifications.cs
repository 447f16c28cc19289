using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;

namespace Notifications.Client.EntityFrameworkCore;

/// <summary>Enqueue from an EF Core <see cref="DbContext"/>, in the transaction it has open.</summary>
public static class DbContextNotifications
{
    /// <summary>
    /// Enqueues <paramref name="notification"/> in <paramref name="dbContext"/>'s current transaction (begun
    /// with <c>Database.BeginTransactionAsync</c>), so it commits or rolls back with the context's changes;
    /// see <see cref="NotificationOutbox.EnqueueAsync"/>. Returns the notification's id.
    /// </summary>
    /// <exception cref="InvalidOperationException">No transaction is open on the context: without one the
    /// notification could commit while the business change does not.</exception>
    public static Task<long> EnqueueNotificationAsync(
        this DbContext dbContext,
        NewNotification notification,
        string schema = "notifications",
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(dbContext);
        var transaction = dbContext.Database.CurrentTransaction
            ?? throw new InvalidOperationException(
                "The DbContext has no open transaction: begin one with Database.BeginTransactionAsync(), save your changes, enqueue, then commit.");
        return NotificationOutbox.EnqueueAsync(transaction.GetDbTransaction(), notification, schema, cancellationToken);
    }
}
