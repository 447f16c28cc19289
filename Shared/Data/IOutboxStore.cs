namespace Notifications.Shared.Data;

/// <summary>The producer's side of the outbox, one implementation per SQL dialect.</summary>
public interface IOutboxStore
{
    /// <summary>
    /// Opens a transaction and deletes up to <paramref name="batchSize"/> rows of the given priorities that
    /// are due and not locked by another producer: priority by priority in the order given, and within one
    /// priority first the scheduled rows whose <c>not_before</c> has passed (earliest first), then the rows
    /// without <c>not_before</c> (oldest first). Rows scheduled for later are never touched. The rows stay
    /// deleted only if the claim is committed; disposing it uncommitted rolls back and the rows come back.
    /// </summary>
    Task<OutboxClaim> ClaimAsync(IReadOnlyList<NotificationPriority> priorities, int batchSize, CancellationToken cancellationToken);

    /// <summary>Claims from every lane: urgent, then normal, then bulk.</summary>
    Task<OutboxClaim> ClaimAsync(int batchSize, CancellationToken cancellationToken) =>
        ClaimAsync(OutboxLanes.All, batchSize, cancellationToken);

    /// <summary>The number of rows waiting (an estimate is not good enough for the demo; this counts).</summary>
    Task<long> CountAsync(CancellationToken cancellationToken);

    /// <summary>
    /// The rows waiting per priority, each counted up to <paramref name="cap"/> (the read stops there: cheap however large
    /// the backlog).
    /// </summary>
    Task<OutboxBacklog> CountByPriorityAsync(long cap, CancellationToken cancellationToken);
}
