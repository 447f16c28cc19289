using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data;

/// <summary>A notification the SMTP server accepted, as the delivery log records it.</summary>
/// <param name="Id">The notification id.</param>
/// <param name="CreatedAt">When its outbox row was inserted (null if unknown): the delivery SLO is measured from here.</param>
/// <param name="Attempts">The attempt on which the server accepted it (1 = first delivery); null if unknown.</param>
public readonly record struct SentNotification(long Id, DateTimeOffset? CreatedAt, int? Attempts = null)
{
    /// <summary>
    /// Its <c>notification.delivered</c> event when an endpoint subscribes to it, written with the batch's delivery log rows
    /// in their transaction (docs/outcome-events.md); null: none.
    /// </summary>
    public OutcomeEvent? Outcome { get; init; }
}
