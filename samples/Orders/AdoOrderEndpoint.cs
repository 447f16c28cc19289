using Notifications.Client;
using Npgsql;

namespace Notifications.Samples.Orders;

/// <summary>POST /orders with plain Npgsql: the order row and the notification in one transaction.</summary>
internal static class AdoOrderEndpoint
{
    public static async Task<IResult> PlaceAsync(OrderRequest request, NpgsqlDataSource dataSource, INotificationOutbox outbox, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using var insert = new NpgsqlCommand(
            $"INSERT INTO {OrderTable.Name} (recipient, item) VALUES (@recipient, @item) RETURNING id", connection, transaction);
        insert.Parameters.AddWithValue("recipient", request.Recipient);
        insert.Parameters.AddWithValue("item", request.Item);
        long orderId = (long)(await insert.ExecuteScalarAsync(cancellationToken))!;

        long notificationId = await outbox.EnqueueAsync(transaction, OrderNotification.For(orderId, request), cancellationToken);

        if (request.SimulateFailure)
        {
            await transaction.RollbackAsync(cancellationToken);
            return OrderNotification.RolledBack();
        }

        await transaction.CommitAsync(cancellationToken);
        return Results.Ok(new OrderPlaced(orderId, notificationId));
    }
}
