namespace Notifications.Shared.Data.Operations;

/// <summary>
/// Every row the database keeps of one notification, read together: the outbox row (while it waits), its delivery-log row,
/// its dead letters, its rejection, its fan-out job (an audience row) or the job it is a delivery of, its later outcomes (bounces, complaints) and its failed attempts. Rows read by both
/// dialects' stores; instants as UTC.
/// </summary>
public sealed class NotificationRecords
{
    /// <summary>The outbox row, while it waits; null once claimed.</summary>
    public StoryOutboxRow? Outbox { get; init; }

    /// <summary>Its delivery-log row, if any.</summary>
    public StoryLogRow? Log { get; init; }

    /// <summary>Its dead letters, oldest first (at most 20).</summary>
    public IReadOnlyList<StoryDeadLetterRow> DeadLetters { get; init; } = [];

    /// <summary>The producer's rejection, if any.</summary>
    public StoryRejectedRow? Rejected { get; init; }

    /// <summary>Its fan-out job, for a row to a subscriber or a topic.</summary>
    public StoryFanOutRow? FanOut { get; init; }

    /// <summary>The fan-out delivery it is, for a delivery id.</summary>
    public StoryDeliveryRow? Delivery { get; init; }

    /// <summary>What bounce and complaint reports said of it after it was sent, oldest first (at most 20; docs/bounces.md).</summary>
    public IReadOnlyList<StoryOutcomeRow> Outcomes { get; init; } = [];

    /// <summary>Its failed attempts that were tried again, first first (at most 20).</summary>
    public IReadOnlyList<StoryAttemptRow> Attempts { get; init; } = [];
}
