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

    public static IResult RolledBack() =>
        Results.Problem("The order failed after the notification was enqueued; both were rolled back.", statusCode: StatusCodes.Status422UnprocessableEntity);
}
