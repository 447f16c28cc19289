using System.Data.Common;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Storage;

namespace Notifications.Client.EntityFrameworkCore;

/// <summary>
/// Writes a context's pending notifications in the transaction its SaveChangesAsync saves in, after the changes'
/// statements: in the one EF Core begins, just before EF Core commits it (a failure there rolls back the changes too, and an
/// execution strategy's retry writes them again in its new transaction), or in the app's own, which the app then commits
/// or rolls back. Registered by <see cref="NotificationsDbContextOptionsExtensions.UseNotificationsOutbox(DbContextOptionsBuilder, string)"/>.
/// </summary>
internal sealed class SaveChangesNotificationsInterceptor(string schema) : ISaveChangesInterceptor, IDbTransactionInterceptor
{
    public InterceptionResult<int> SavingChanges(DbContextEventData eventData, InterceptionResult<int> result)
    {
        if (eventData.Context is { } context && Of(context).Pending.Count > 0)
        {
            throw new InvalidOperationException("The context has notifications to save: call SaveChangesAsync (the enqueue is asynchronous only).");
        }

        return result;
    }

    public ValueTask<InterceptionResult<int>> SavingChangesAsync(
        DbContextEventData eventData, InterceptionResult<int> result, CancellationToken cancellationToken = default)
    {
        if (eventData.Context is not { } context || Of(context) is not { Pending.Count: > 0 } notifications)
        {
            return new(result);
        }

        if (System.Transactions.Transaction.Current is not null)
        {
            throw new NotSupportedException("Notifications added to the context are not saved in an ambient transaction (TransactionScope): "
                + "use Database.BeginTransactionAsync, or enqueue with EnqueueNotificationAsync in the transaction the scope's connection has.");
        }

        if (context.Database.CurrentTransaction is null && context.Database.AutoTransactionBehavior == AutoTransactionBehavior.Never)
        {
            throw new InvalidOperationException(
                "AutoTransactionBehavior is Never and no transaction is open: the notifications could commit without the changes. Begin a transaction.");
        }

        notifications.Saving(context);
        return new(result);
    }

    public async ValueTask<InterceptionResult> TransactionCommittingAsync(
        DbTransaction transaction, TransactionEventData eventData, InterceptionResult result, CancellationToken cancellationToken = default)
    {
        if (eventData.Context is { } context && Of(context) is { Transaction: SaveChangesTransaction.EfCores } notifications)
        {
            await InsertAsync(notifications, transaction, cancellationToken);
        }

        return result;
    }

    public async ValueTask<int> SavedChangesAsync(SaveChangesCompletedEventData eventData, int result, CancellationToken cancellationToken = default)
    {
        if (eventData.Context is not { } context || Of(context) is not { Transaction: not SaveChangesTransaction.None } notifications)
        {
            return result;
        }

        if (notifications.Transaction == SaveChangesTransaction.Apps)
        {
            await InsertAsync(notifications, context.Database.CurrentTransaction!.GetDbTransaction(), cancellationToken);
        }
        else if (!notifications.Inserted)
        {
            // Nothing else to save, so EF Core began no transaction: begin one here; TransactionCommittingAsync fills it as
            // it fills EF Core's, and a retrying execution strategy retries the whole of it.
            await context.Database.CreateExecutionStrategy().ExecuteAsync(context, async (db, ct) =>
            {
                await using var transaction = await db.Database.BeginTransactionAsync(ct);
                await transaction.CommitAsync(ct);
            }, cancellationToken);
        }

        notifications.Saved(context);
        return result;
    }

    // A failed SaveChanges ends through the context's SaveChangesFailed event (SaveChangesNotifications.Saving); a canceled
    // one raises no event.
    public Task SaveChangesCanceledAsync(DbContextEventData eventData, CancellationToken cancellationToken = default)
    {
        if (eventData.Context is { } context)
        {
            Of(context).Failed(context);
        }

        return Task.CompletedTask;
    }

    private static SaveChangesNotifications Of(DbContext context) => context.GetService<SaveChangesNotifications>();

    private async Task InsertAsync(SaveChangesNotifications notifications, DbTransaction transaction, CancellationToken cancellationToken)
    {
        var dialect = OutboxDialects.For(NotificationOutbox.ConnectionOf(transaction));
        foreach (var pending in notifications.Pending)
        {
            notifications.Insert(pending, await NotificationOutbox.EnqueueCheckedAsync(
                dialect, transaction, pending.Values, schema, NotificationOutbox.Logger, cancellationToken));
        }
    }
}
