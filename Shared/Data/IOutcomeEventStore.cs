using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data;

/// <summary>Outcome events (docs/outcome-events.md): the endpoints' subscriptions, the events' writes and their order; one implementation per SQL dialect.</summary>
public interface IOutcomeEventStore
{
    /// <summary>Every subscription, by endpoint and type.</summary>
    Task<IReadOnlyList<OutcomeSubscription>> ListSubscriptionsAsync(CancellationToken cancellationToken);

    /// <summary>Subscribes <paramref name="endpoint"/> to <paramref name="eventType"/>; false if it was subscribed already.</summary>
    Task<bool> SubscribeAsync(string endpoint, string eventType, CancellationToken cancellationToken);

    /// <summary>Ends the subscription; false if there was none.</summary>
    Task<bool> UnsubscribeAsync(string endpoint, string eventType, CancellationToken cancellationToken);

    /// <summary>The event types at least one enabled endpoint is subscribed to (the consumer's cache).</summary>
    Task<IReadOnlySet<string>> SubscribedTypesAsync(CancellationToken cancellationToken);

    /// <summary>Writes <paramref name="events"/> in a transaction of their own (<see cref="OutcomeEvents"/>).</summary>
    Task WriteAsync(IReadOnlyCollection<OutcomeEvent> events, CancellationToken cancellationToken);

    /// <summary>
    /// Whether the event whose outbox row is <paramref name="eventId"/> has an earlier event of the same notification to the
    /// same endpoint that is not settled yet (neither sent nor dead-lettered): then it waits.
    /// </summary>
    Task<bool> HasUnsettledPredecessorAsync(long eventId, CancellationToken cancellationToken);
}
