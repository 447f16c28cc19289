namespace Notifications.Shared.Data;

/// <summary>One batch of the retention cleanup: rows deleted, and the highest notification id among them.</summary>
public readonly record struct RetentionBatch(int Deleted, long? MaxNotificationId);

/// <summary>
/// The retention cleanup's statements, one implementation per SQL dialect. Each delete is one short
/// transaction of at most a batch of rows, skipping rows another transaction holds (SKIP LOCKED / READPAST),
/// so it never waits for the consumers and they wait at most one small batch for it.
/// </summary>
public interface IRetentionStore
{
    /// <summary>
    /// Takes the fleet-wide cleanup lease until <paramref name="lease"/> from now if nobody holds it
    /// (it expired); true if this caller got it. One row, one UPDATE: any number of workers may ask.
    /// </summary>
    Task<bool> TryLeaseAsync(string holder, TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>Deletes up to <paramref name="batchSize"/> 'sent' delivery-log rows recorded before <paramref name="cutoff"/>.</summary>
    Task<RetentionBatch> DeleteDeliveryLogAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>Deletes up to <paramref name="batchSize"/> dead-letter rows dead-lettered before <paramref name="cutoff"/>.</summary>
    Task<RetentionBatch> DeleteDeadLettersAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes up to <paramref name="batchSize"/> idempotency keys (table <c>idempotency_key</c>) taken before
    /// <paramref name="cutoff"/>; a key is not a notification's record, so the batch carries no id.
    /// </summary>
    Task<RetentionBatch> DeleteIdempotencyKeysAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes up to <paramref name="batchSize"/> delivery rows (table <c>audience_delivery</c>) of fan-outs finished
    /// (done or no such audience) before <paramref name="cutoff"/>: a job of a million devices goes a batch at a time.
    /// Their ids are fan-out ids (2^62 up), never the watermark's.
    /// </summary>
    Task<RetentionBatch> DeleteFanOutDeliveriesAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes up to <paramref name="batchSize"/> fan-out jobs (table <c>fanout_job</c>) finished before
    /// <paramref name="cutoff"/> whose deliveries are gone; a job's id is its audience row's outbox id, which the watermark takes.
    /// </summary>
    Task<RetentionBatch> DeleteFanOutJobsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes up to <paramref name="batchSize"/> live notifications (table <c>live_pending</c>) that expired before
    /// <paramref name="cutoff"/> unacked, and as many broadcasts (<c>live_broadcast</c>, with their receipts); not a notification's record (its delivery log's is): no watermark.
    /// </summary>
    Task<RetentionBatch> DeleteExpiredLiveAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes up to <paramref name="batchSize"/> <c>outcome_event</c> rows made before <paramref name="cutoff"/>, the oldest first:
    /// an event's once-key and its place in its notification's order, kept as long as the delivery log's records (its
    /// webhook was sent or dead-lettered long before). No watermark: an event row is not a notification's record.
    /// </summary>
    Task<RetentionBatch> DeleteOutcomeEventsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken);

    /// <summary>Records a finished run and raises the highest notification id whose records were deleted.</summary>
    Task RecordRunAsync(long? maxDeletedId, CancellationToken cancellationToken);
}
