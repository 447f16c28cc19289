namespace Notifications.Shared.Data.FanOut;

/// <summary>One delivery of a fan-out to publish: its notification id, and the contact point's channel and address.</summary>
public sealed record AudienceDelivery(long Id, long SubscriberId, string Channel, string Address);
