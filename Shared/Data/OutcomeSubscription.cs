namespace Notifications.Shared.Data;

/// <summary>One row of <c>webhook_event_subscription</c>: <paramref name="Endpoint"/> takes the events of <paramref name="EventType"/>.</summary>
public sealed record OutcomeSubscription(string Endpoint, string EventType);
