namespace Notifications.Shared.Data;

/// <summary>
/// The <c>dead_letter</c> table: the database's copy of what the dead-letter queue holds (reason, attempts,
/// when), so a notification's status needs no look into the queue. One implementation per SQL dialect.
/// </summary>
public interface IDeadLetterStore
{
    /// <summary>
    /// Records dead letters (one statement). A notification id already recorded is replaced by the newer
    /// dead letter; records without an id are each added.
    /// </summary>
    Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, CancellationToken cancellationToken);

    /// <summary>
    /// Removes the record of a dead letter taken out of the queue (requeued): the row of its notification id
    /// (or, for a message without one, of its reason) with its instant — so a newer dead letter of the same id,
    /// recorded meanwhile by a consumer, stays. Returns the rows removed.
    /// </summary>
    Task<int> RemoveAsync(DeadLetterRecord deadLetter, CancellationToken cancellationToken);

    /// <summary>Removes every record dead-lettered at or before <paramref name="upTo"/> (the queue was purged); returns how many.</summary>
    Task<long> RemoveAllAsync(DateTimeOffset upTo, CancellationToken cancellationToken);
}
