namespace Notifications.Samples.Orders;

/// <summary>The business row (table sample_order).</summary>
internal sealed class Order
{
    public long Id { get; set; }

    public required string Recipient { get; set; }

    public required string Item { get; set; }
}
