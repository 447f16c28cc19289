namespace Notifications.Shared.Outcomes;

/// <summary>
/// What became of one notification, to be pushed to every endpoint subscribed to <see cref="Type"/> (docs/outcome-events.md).
/// </summary>
/// <param name="NotificationId">The notification it reports on.</param>
/// <param name="Type">One of <see cref="OutcomeEventTypes"/>.</param>
/// <param name="Channel">The notification's channel (email, webhook, push, live).</param>
/// <param name="Recipient">The notification's recipient (an address, an endpoint's name, a device, a subscriber), if known.</param>
/// <param name="OccurredAt">When it happened.</param>
/// <param name="Detail">A JSON object text of the type's own fields (the reason, the attempt), or null for none.</param>
public sealed record OutcomeEvent(long NotificationId, string Type, string Channel, string? Recipient, DateTimeOffset OccurredAt, string? Detail = null);
