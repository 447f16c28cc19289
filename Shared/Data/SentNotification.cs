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

    /// <summary>When the producer claimed it (the message's <c>x-claimed-at</c>); null if the message had no stamp.</summary>
    public DateTimeOffset? ClaimedAt { get; init; }

    /// <summary>When the producer published it (the message's <c>x-published-at</c>); null if the message had no stamp.</summary>
    public DateTimeOffset? PublishedAt { get; init; }

    /// <summary>The trace its handling belonged to (32 lowercase hex digits); null when it was not traced.</summary>
    public string? TraceId { get; init; }
}
