namespace Notifications.Samples.Orders;

/// <summary>The schema of the notifications outbox (configuration key Notifications:Schema).</summary>
internal sealed record OutboxSchema(string Name);
