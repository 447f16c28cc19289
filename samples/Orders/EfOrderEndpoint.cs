using Microsoft.EntityFrameworkCore;
using Notifications.Client.EntityFrameworkCore;

namespace Notifications.Samples.Orders;

/// <summary>POST /ef/orders with EF Core: the notification is added to the context, and SaveChangesAsync writes it with the order.</summary>
internal static class EfOrderEndpoint
{
    public static async Task<IResult> PlaceAsync(OrderRequest request, OrdersContext db, CancellationToken cancellationToken)
    {
        var order = new Order { Recipient = request.Recipient, Item = request.Item };
        db.Orders.Add(order);
        // The order's id is not known before the save: the confirmation names the item.
        var notification = db.AddNotification(OrderNotification.For(order, request));
        try
        {
            await db.SaveChangesAsync(cancellationToken);
        }
        catch (DbUpdateException)
        {
            // The table refused the order (a blank item): the notification was not written either.
            return OrderNotification.RolledBack();
        }

        return Results.Ok(new OrderPlaced(order.Id, notification.Id!.Value));
    }
}
