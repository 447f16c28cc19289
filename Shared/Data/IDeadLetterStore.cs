namespace Notifications.Shared.Data;

/// <summary>
/// The <c>dead_letter</c> table: the database's copy of what the dead-letter queue holds (reason, attempts,
/// when), so a notification's status needs no look into the queue. One implementation per SQL dialect.
/// </summary>
public interface IDeadLetterStore
{
    /// <summary>
    /// Records dead letters (one statement), each as a row of its own: two dead letters of one notification id,
    /// or two without an id, are two rows. A key already recorded is left as it is (idempotent: a redelivered copy's
    /// dead letter of the same attempt has the same key).
    /// </summary>
    Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, CancellationToken cancellationToken);

    /// <summary>
    /// Records <paramref name="deadLetters"/> as <see cref="RecordAsync(IReadOnlyCollection{DeadLetterRecord}, CancellationToken)"/>
    /// does, and writes <paramref name="events"/> (their <c>notification.dead_lettered</c> outcome events) in the same
    /// transaction (<see cref="Outcomes.OutcomeEvents"/>): both or neither. No events: the record alone.
    /// </summary>
    Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, IReadOnlyCollection<Outcomes.OutcomeEvent> events, CancellationToken cancellationToken);

    /// <summary>
    /// Which of <paramref name="keys"/> have a dead letter recorded (one statement): the check every redelivered copy makes,
    /// coalesced across handlers. A copy whose key is recorded then reads its record (<see cref="FindAsync"/>).
    /// </summary>
    Task<IReadOnlySet<Guid>> FindRecordedAsync(IReadOnlyCollection<Guid> keys, CancellationToken cancellationToken);

    /// <summary>The dead letter recorded under <paramref name="key"/>, or null.</summary>
    Task<DeadLetterRecord?> FindAsync(Guid key, CancellationToken cancellationToken);

    /// <summary>
    /// Removes the record of a dead letter taken out of the queue (requeued): the row of its key (the message's
    /// <c>x-dead-key</c>) with its instant — or, for a row recorded before keys, of its notification id (or
    /// reason) with its instant — so a newer dead letter of the same id, recorded meanwhile by a consumer, stays.
    /// Returns the rows removed.
    /// </summary>
    Task<int> RemoveAsync(DeadLetterRecord deadLetter, CancellationToken cancellationToken);

    /// <summary>Removes every record dead-lettered at or before <paramref name="upTo"/> (the queue was purged); returns how many.</summary>
    Task<long> RemoveAllAsync(DateTimeOffset upTo, CancellationToken cancellationToken);
}
