namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// One delivery of a fan-out to publish: its notification id, the contact point's channel and address, and the subscriber's
/// locale when its page was written (what a templated delivery renders in unless its row named one).
/// </summary>
public sealed record AudienceDelivery(long Id, long SubscriberId, string Channel, string Address, string? Locale = null);
