using Microsoft.Extensions.Logging;
using Notifications.Shared.Data;

namespace Notifications.Shared.Retention;

/// <summary>What one cleanup run deleted.</summary>
/// <param name="DeliveryLogRows">'sent' delivery-log rows older than <see cref="RetentionOptions.DeliveryLog"/>.</param>
/// <param name="DeadLetterRows">Dead-letter rows older than <see cref="RetentionOptions.DeadLetters"/>.</param>
/// <param name="Batches">Delete statements run.</param>
/// <param name="IdempotencyKeys">Idempotency keys older than <see cref="RetentionOptions.DeliveryLog"/>.</param>
/// <param name="FanOuts">Fan-out jobs finished longer ago than <see cref="RetentionOptions.DeliveryLog"/>.</param>
/// <param name="FanOutDeliveries">Their delivery rows.</param>
/// <param name="ExpiredLive">Live notifications that expired unacked longer ago than <see cref="RetentionOptions.DeliveryLog"/>.</param>
/// <param name="OutcomeEvents">Outcome events' rows (<c>outcome_event</c>) made longer ago than <see cref="RetentionOptions.DeliveryLog"/>.</param>
public readonly record struct RetentionResult(
    long DeliveryLogRows, long DeadLetterRows, int Batches, long IdempotencyKeys = 0, long FanOuts = 0, long FanOutDeliveries = 0, long ExpiredLive = 0,
    long OutcomeEvents = 0);

/// <summary>
/// One cleanup run: deletes in batches of <see cref="RetentionOptions.BatchSize"/> until a batch comes back
/// short, pausing <see cref="RetentionOptions.BatchPause"/> between batches, and after each batch raises the
/// highest notification id whose records are gone (the status then answers "unknown", not "in flight").
/// </summary>
public sealed class RetentionCleanup(IRetentionStore store, RetentionOptions options, TimeProvider time, ILogger<RetentionCleanup> logger)
{
    /// <summary>Runs once now; stops between batches when cancelled.</summary>
    public async Task<RetentionResult> RunAsync(CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow();
        int batches = 0;
        long log = await DrainAsync((n, ct) => store.DeleteDeliveryLogAsync(now - options.DeliveryLog, n, ct), () => batches++, cancellationToken);
        long dead = await DrainAsync((n, ct) => store.DeleteDeadLettersAsync(now - options.DeadLetters, n, ct), () => batches++, cancellationToken);
        // A key lives as long as the delivery log's record of what it sent: a retry after that sends again.
        long keys = await DrainAsync((n, ct) => store.DeleteIdempotencyKeysAsync(now - options.DeliveryLog, n, ct), () => batches++, cancellationToken);
        // A finished fan-out's job and delivery rows live as long as the delivery log's records of what it sent.
        long fanOutDeliveries = await DrainAsync((n, ct) => store.DeleteFanOutDeliveriesAsync(now - options.DeliveryLog, n, ct), () => batches++, cancellationToken);
        long fanOuts = await DrainAsync((n, ct) => store.DeleteFanOutJobsAsync(now - options.DeliveryLog, n, ct), () => batches++, cancellationToken);
        // A live notification nobody acked stays (expired, not sent) as long as its delivery log's record says it was handed on.
        long live = await DrainAsync((n, ct) => store.DeleteExpiredLiveAsync(now - options.DeliveryLog, n, ct), () => batches++, cancellationToken);
        // An outcome event's once-key lives as long as the delivery log's record of its notification.
        long events = await DrainAsync((n, ct) => store.DeleteOutcomeEventsAsync(now - options.DeliveryLog, n, ct), () => batches++, cancellationToken);
        await store.RecordRunAsync(null, cancellationToken);
        var result = new RetentionResult(log, dead, batches, keys, fanOuts, fanOutDeliveries, live, events);
        SharedLog.RetentionRan(
            logger, result.DeliveryLogRows, result.DeadLetterRows, result.IdempotencyKeys, result.FanOuts, result.FanOutDeliveries, result.ExpiredLive,
            result.OutcomeEvents, result.Batches, time.GetUtcNow() - now);
        return result;
    }

    private async Task<long> DrainAsync(
        Func<int, CancellationToken, Task<RetentionBatch>> deleteBatch, Action counted, CancellationToken cancellationToken)
    {
        long total = 0;
        while (true)
        {
            var batch = await deleteBatch(options.BatchSize, cancellationToken);
            counted();
            total += batch.Deleted;
            if (batch.MaxNotificationId is { } max)
            {
                await store.RecordRunAsync(max, cancellationToken);
            }

            if (batch.Deleted < options.BatchSize)
            {
                return total;
            }

            await Task.Delay(options.BatchPause, time, cancellationToken);
        }
    }
}
