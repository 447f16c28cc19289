namespace Notifications.Samples.Orders;

/// <summary>
/// An order to place. <paramref name="SimulateFailure"/> (POST /orders) makes the business step fail after the enqueue,
/// so the transaction rolls back: the order and its notification disappear together. POST /ef/orders fails the same
/// way on a blank item, which the table refuses.
/// </summary>
internal sealed record OrderRequest(string Recipient, string Item, string? IdempotencyKey = null, bool SimulateFailure = false);
