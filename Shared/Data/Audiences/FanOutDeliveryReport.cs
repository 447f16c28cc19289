namespace Notifications.Shared.Data.Audiences;

/// <summary>
/// The deliveries of one fan-out (a notification for a subscriber or a topic; docs/fan-out.md), as <c>admin show</c> lists
/// them: how many by channel and state, and the first few in subscriber order. A delivery's state is its own status
/// (<c>sent</c>, <c>suppressed</c>, <c>opted_out</c>, <c>dead_lettered</c>, <c>in_flight</c>) or what the fan-out recorded
/// instead of publishing it (<c>opted_out</c>, <c>no_contact</c>).
/// </summary>
public sealed record FanOutDeliveryReport(IReadOnlyList<DeliveryTally> Tallies, IReadOnlyList<DeliveryEntry> First);

/// <summary>How many deliveries of a fan-out are in <paramref name="State"/> on <paramref name="Channel"/> (null: no contact point).</summary>
public sealed record DeliveryTally(string? Channel, string State, long Count);

/// <summary>One delivery of a fan-out: its id, the subscriber by the app's id, the contact point, its state.</summary>
public sealed record DeliveryEntry(long Id, string? Subscriber, string? Channel, string? Address, string State);
