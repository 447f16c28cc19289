namespace Notifications.Shared.Data;

/// <summary>The producer's side of the outbox, one implementation per SQL dialect.</summary>
public interface IOutboxStore
{
    /// <summary>
    /// Opens a transaction and deletes up to <paramref name="batchSize"/> of the oldest rows not locked
    /// by another producer. The rows stay deleted only if the claim is committed; disposing it
    /// uncommitted rolls back and the rows come back.
    /// </summary>
    Task<OutboxClaim> ClaimAsync(int batchSize, CancellationToken cancellationToken);

    /// <summary>The number of rows waiting (an estimate is not good enough for the demo; this counts).</summary>
    Task<long> CountAsync(CancellationToken cancellationToken);
}
