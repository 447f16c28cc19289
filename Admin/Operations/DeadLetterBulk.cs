using Notifications.Shared.Data;
using Notifications.Shared.Data.Operations;
using RabbitMQ.Client;

namespace Notifications.Admin.Operations;

/// <summary>
/// Requeue and purge of dead letters, the one implementation behind <c>admin dead-letters requeue</c> (by reason text, id
/// or all), the bulk jobs (a group or a list of ids) and the console: the queue moves (<see cref="DeadLetterMover"/>),
/// at-most-once marks released before a requeued copy goes out, and the <c>dead_letter</c> rows of what left the queue removed.
/// </summary>
internal sealed class DeadLetterBulk(AdminBroker broker, IDeliveryLogStore deliveryLog, IDeadLetterStore deadLetters, IDeadLetterGroupStore groups)
{
    /// <summary>How many letters not taken a move holds in their places (tests set a few to reach the tail path).</summary>
    public int HoldLimit { get; init; } = DeadLetterMover.DefaultHoldLimit;

    /// <summary>
    /// Moves what <paramref name="match"/> accepts (stopping after <paramref name="wanted"/>); <paramref name="progress"/> gets
    /// (moved so far, looked at so far) after each batch and returns false to stop. Returns the letters moved.
    /// </summary>
    public async Task<DeadLetterBulkResult> MoveAsync(
        IConnection connection, string kind, Func<DeadLetter, bool> match, int? wanted, Func<int, int, Task<bool>>? progress, CancellationToken cancellationToken)
    {
        bool requeue = kind == AdminJobKinds.Requeue;
        var moved = new List<long?>();
        int rows = 0;
        var hooks = new DeadLetterMoveHooks(
            // An at-most-once consumer keeps its 'sending' mark after a permanent failure; without releasing it the requeued
            // copy would be taken for a duplicate and never sent. A 'sent' row stays.
            batch => deliveryLog.ReleaseAsync(batch.Where(l => l.NotificationId is not null).Select(l => l.NotificationId!.Value).ToList(), cancellationToken),
            async (batch, looked) =>
            {
                moved.AddRange(batch.Select(l => l.NotificationId));
                rows += await ForgetAsync(batch, withFiles: !requeue, cancellationToken);
                return progress is null || await progress(moved.Count, looked);
            });
        await new DeadLetterMover(connection, broker.Options, HoldLimit).MoveAsync(requeue, match, wanted, hooks, cancellationToken);
        return new DeadLetterBulkResult(moved, rows);
    }

    // The rows of the letters taken out: by key in one statement; a letter from before keys (with x-dead-at, no key) by its
    // id or reason and instant; one without x-dead-at was dead-lettered before the table existed and has no row.
    private async Task<int> ForgetAsync(IReadOnlyList<DeadLetter> batch, bool withFiles, CancellationToken cancellationToken)
    {
        int removed = await groups.RemoveKeysAsync(batch.Where(l => l.Key is not null).Select(l => l.Key!.Value).ToList(), withFiles, cancellationToken);
        foreach (var letter in batch.Where(l => l.Key is null && l.DeadAt is not null))
        {
            removed += await deadLetters.RemoveAsync(new DeadLetterRecord(letter.NotificationId, letter.Reason, letter.Attempts ?? 0, letter.DeadAt!.Value), cancellationToken);
        }

        return removed;
    }
}
