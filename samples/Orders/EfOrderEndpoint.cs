using Notifications.Client.EntityFrameworkCore;

namespace Notifications.Samples.Orders;

/// <summary>POST /ef/orders with EF Core: SaveChanges and the enqueue share the context's transaction.</summary>
internal static class EfOrderEndpoint
{
    public static async Task<IResult> PlaceAsync(OrderRequest request, OrdersContext db, OutboxSchema schema, CancellationToken cancellationToken)
    {
        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        var order = new Order { Recipient = request.Recipient, Item = request.Item };
        db.Orders.Add(order);
        await db.SaveChangesAsync(cancellationToken);

        long notificationId = await db.EnqueueNotificationAsync(OrderNotification.For(order.Id, request), schema.Name, cancellationToken);

        if (request.SimulateFailure)
        {
            await transaction.RollbackAsync(cancellationToken);
            return OrderNotification.RolledBack();
        }

        await transaction.CommitAsync(cancellationToken);
        return Results.Ok(new OrderPlaced(order.Id, notificationId));
    }
}
