namespace Notifications.IntegrationTests.Client;

/// <summary>A business row of <see cref="ShopContext"/>.</summary>
internal sealed class ShopOrder
{
    public long Id { get; set; }

    public required string Item { get; set; }

    /// <summary>A deferred foreign key: a missing customer fails at COMMIT, after every statement of the save ran.</summary>
    public long? CustomerId { get; set; }
}
