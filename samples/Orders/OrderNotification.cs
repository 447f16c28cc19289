using Notifications.Client;

namespace Notifications.Samples.Orders;

/// <summary>The confirmation both endpoints enqueue.</summary>
internal static class OrderNotification
{
    public static NewNotification For(long orderId, OrderRequest request) =>
        new(request.Recipient, $"Order {orderId} confirmed", $"Thank you for ordering {request.Item}.")
        {
            IdempotencyKey = request.IdempotencyKey,
        };

    public static NewNotification For(Order order, OrderRequest request) =>
        new(order.Recipient, $"Your order of {order.Item} is confirmed", $"Thank you for ordering {order.Item}.")
        {
            IdempotencyKey = request.IdempotencyKey,
        };

    public static IResult RolledBack() =>
        Results.Problem("The order failed; its notification was rolled back with it.", statusCode: StatusCodes.Status422UnprocessableEntity);
}
