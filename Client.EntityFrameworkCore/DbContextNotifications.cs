using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Storage;

namespace Notifications.Client.EntityFrameworkCore;

/// <summary>Enqueue from an EF Core <see cref="DbContext"/>: with SaveChangesAsync, or in the transaction it has open.</summary>
public static class DbContextNotifications
{
    /// <summary>
    /// Adds <paramref name="notification"/> to <paramref name="dbContext"/>: its next <c>SaveChangesAsync</c> inserts it in the
    /// transaction that saves the changes (EF Core's own, or the app's when one is open), so it exists exactly when they
    /// commit. A failed SaveChanges inserts nothing and keeps it for the next one, as it keeps the changes. Checked now.
    /// Needs <see cref="NotificationsDbContextOptionsExtensions.UseNotificationsOutbox(DbContextOptionsBuilder, string)"/> on the context's options.
    /// </summary>
    /// <returns>The pending notification, whose <see cref="PendingNotification.Id"/> is set once the SaveChanges succeeded.</returns>
    /// <exception cref="ArgumentException">A field is refused (as <see cref="NotificationOutbox.EnqueueAsync"/>).</exception>
    /// <exception cref="InvalidOperationException">The context's options have no <c>UseNotificationsOutbox()</c>.</exception>
    public static PendingNotification AddNotification(this DbContext dbContext, NewNotification notification)
    {
        ArgumentNullException.ThrowIfNull(dbContext);
        var values = OutboxValues.Of(notification);
        if (dbContext.GetService<IDbContextOptions>().FindExtension<NotificationsOutboxOptionsExtension>() is null)
        {
            throw new InvalidOperationException(
                "The context cannot save notifications: add .UseNotificationsOutbox() to its options (AddDbContext or OnConfiguring).");
        }

        var pending = new PendingNotification(notification, values);
        dbContext.GetService<SaveChangesNotifications>().Add(pending);
        return pending;
    }

    /// <summary>
    /// Enqueues <paramref name="notification"/> at once in <paramref name="dbContext"/>'s current transaction (begun
    /// with <c>Database.BeginTransactionAsync</c>), so it commits or rolls back with the context's changes;
    /// see <see cref="NotificationOutbox.EnqueueAsync"/>. Returns the notification's id.
    /// </summary>
    /// <exception cref="InvalidOperationException">No transaction is open on the context: without one the
    /// notification could commit while the business change does not.</exception>
    public static Task<long> EnqueueNotificationAsync(
        this DbContext dbContext,
        NewNotification notification,
        string schema = OutboxSchemaName.Default,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(dbContext);
        var transaction = dbContext.Database.CurrentTransaction
            ?? throw new InvalidOperationException(
                "The DbContext has no open transaction: begin one with Database.BeginTransactionAsync(), save your changes, enqueue, then commit "
                + "(or add the notification with AddNotification and let SaveChangesAsync write it).");
        return NotificationOutbox.EnqueueAsync(transaction.GetDbTransaction(), notification, schema, cancellationToken);
    }
}
