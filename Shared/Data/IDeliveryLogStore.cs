namespace Notifications.Shared.Data;

/// <summary>
/// The consumer's idempotency record, one implementation per SQL dialect. Every method takes a batch:
/// concurrent handlers' calls are coalesced into one statement.
/// </summary>
public interface IDeliveryLogStore
{
    /// <summary>The ids among <paramref name="ids"/> already recorded as sent.</summary>
    Task<IReadOnlySet<long>> FindSentAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken);

    /// <summary>Records the ids as sent (inserting or updating their rows), without their insert time.</summary>
    Task RecordSentAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        RecordSentAsync(ids.Select(id => new SentNotification(id, null)).ToList(), cancellationToken);

    /// <summary>Records the notifications as sent with their outbox insert time (the delivery SLO's start).</summary>
    Task RecordSentAsync(IReadOnlyCollection<SentNotification> sent, CancellationToken cancellationToken);

    /// <summary>
    /// At-most-once: inserts a 'sending' row for each id that has none, and turns each 'handing_back' row into 'sending'
    /// (a copy handed back, or any copy, takes over the mark its hand-back left), and returns those ids — the ones this
    /// caller now owns. An id with a row of any other status is not returned.
    /// </summary>
    Task<IReadOnlySet<long>> TryMarkSendingAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken);

    /// <summary>At-most-once: removes 'sending' marks of sends known not to have happened, so a retry may claim them.</summary>
    Task ReleaseAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken);

    /// <summary>
    /// At-most-once, before a hand-back publishes its copy: turns these 'sending' marks (sends known not to have happened)
    /// into 'handing_back' marks, which the next copy to come takes over (<see cref="TryMarkSendingAsync"/>).
    /// </summary>
    Task MarkHandingBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken);

    /// <summary>
    /// At-most-once, once the hand-back's copy is confirmed: removes those marks that are still 'handing_back'; one a copy
    /// took over meanwhile (now 'sending', its owner's) stays.
    /// </summary>
    Task ReleaseHandedBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken);

    /// <summary>
    /// At-most-once: records on their 'sending' marks why these sends' outcomes are unknown, and their attempts; the marks
    /// stay (<c>notification_status</c> answers <c>maybe_sent</c>). An id without a 'sending' mark is left as it is.
    /// </summary>
    Task RecordMaybeSentAsync(IReadOnlyCollection<MaybeSentNotification> maybeSent, CancellationToken cancellationToken);

    /// <summary>
    /// Records failed attempts that are tried again (the failure path only, never a send that succeeds); an attempt already
    /// recorded (a redelivered copy of it) keeps its first row.
    /// </summary>
    Task RecordFailedAttemptsAsync(IReadOnlyCollection<FailedAttempt> failed, CancellationToken cancellationToken);
}
