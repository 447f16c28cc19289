using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.Settling;

/// <summary>
/// At most once, a single message is acked before its send, once its mark is taken (the mark, not the ack, stops a
/// redelivered copy). When that send did not happen the notification is handed back: its mark becomes 'handing_back', a
/// copy of the message is published with a confirm, and only then is the mark released — unless a copy took it over
/// meanwhile: the next copy to come turns a 'handing_back' mark into its own 'sending' one (it was never sent), where a
/// 'sending' mark makes it a duplicate. A copy the broker does not take leaves the mark in place: the notification is lost
/// with its mark, as after a crash between the ack and the send. So at every instant it has its mark, a confirmed copy or a
/// dead letter; the other order (the mark first) left nothing when the copy was refused: no mark, no message (the original
/// was acked), no dead letter. And with the mark left 'sending' until the release, a copy handled before it (a delay queue
/// of 1 s against a release that took longer on a loaded database) was acked as a duplicate, and the release then left
/// nothing either. An envelope item is not acked before its send (the broker keeps its envelope), so it does not come here.
/// </summary>
internal sealed class HandBackSettler(
    DeliveryLog log, OutboundPublisher outbound, InfrastructureBreaker infrastructure, RabbitMqOptions rabbit, ConsumerStats stats, ILogger logger)
{
    private static readonly TimeSpan AbortedTimeout = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Not sent while its destination turns sends away: a copy with the same attempt, parked in a delay queue for
    /// <paramref name="parkFor"/> (an endpoint's or a provider's breaker, a Retry-After pause) or at the tail of the work
    /// queue (the relay's breaker).
    /// </summary>
    public Task UnspentAsync(Delivery delivery, long notificationId, RelayBreaker breaker, TimeSpan parkFor, CancellationToken cancellationToken) =>
        HandBackAsync(notificationId, ct => breaker.Gated
            ? outbound.ReturnAsync(delivery, ct)
            : outbound.ParkAsync(delivery, parkFor, ct), cancellationToken);

    /// <summary>Not sent, for <paramref name="reason"/>: a retry through its delay queue, or after the last attempt a dead letter.</summary>
    public async Task RetryAsync(Delivery delivery, long notificationId, string reason, CancellationToken cancellationToken)
    {
        if (delivery.Attempt > rabbit.RetryDelays.Length)
        {
            await HandBackAsync(notificationId, ct => DeadLetterAsync(delivery, $"gave up after {delivery.Attempt} attempts: {reason}", ct), cancellationToken);
            return;
        }

        try
        {
            await DeliverySettler.RecordFailedAttemptAsync(log, delivery, reason, cancellationToken);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            // Acked already: the copy matters more than the story's line.
            ConsumerLog.FailedAttemptNotRecorded(logger, notificationId, ex);
        }

        await HandBackAsync(notificationId, ct => RetryCopyAsync(delivery, delivery.Attempt, ct), cancellationToken);
    }

    /// <summary>
    /// Aborted at shutdown before the message was handed over: a retry (through the last delay queue at the latest; a dead
    /// letter without delay queues), within its own few seconds, since the handler's token is cancelled. An envelope item
    /// goes back with its envelope instead; unmarked, it is sent once either way.
    /// </summary>
    public async Task AbortedAsync(Delivery delivery, long notificationId)
    {
        using var timeout = new CancellationTokenSource(AbortedTimeout);
        if (!delivery.SettlesWithEnvelope)
        {
            await HandBackAsync(notificationId, ct => rabbit.RetryDelays.Length == 0
                ? DeadLetterAsync(delivery, "aborted at shutdown before the send; not sent", ct)
                : RetryCopyAsync(delivery, Math.Min(delivery.Attempt, rabbit.RetryDelays.Length), ct), timeout.Token);
            return;
        }

        try
        {
            await log.ReleaseAsync(notificationId, timeout.Token);
            await delivery.ReturnWithEnvelopeAsync();
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The envelope is not acked: requeued whole when the channel closes, its item unmarked or marked.
            ConsumerLog.HandBackFailed(logger, notificationId, ex);
        }
    }

    private async Task HandBackAsync(long notificationId, Func<CancellationToken, Task> publishCopy, CancellationToken cancellationToken)
    {
        try
        {
            // A database or broker that does not answer for now is waited out (DeliveryLog, InfrastructureBreaker).
            await log.MarkHandingBackAsync(notificationId, cancellationToken);
            await infrastructure.RunAsync(publishCopy, cancellationToken);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            ConsumerLog.HandBackFailed(logger, notificationId, ex);
            return;
        }

        try
        {
            await log.ReleaseHandedBackAsync(notificationId, cancellationToken);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The copy takes the 'handing_back' mark over when it comes: sent once all the same.
            ConsumerLog.MarkNotReleased(logger, notificationId, ex);
        }
    }

    private async Task RetryCopyAsync(Delivery delivery, int attempt, CancellationToken cancellationToken)
    {
        await outbound.RetryAsync(delivery, attempt, cancellationToken);
        stats.AddRetried();
    }

    private async Task DeadLetterAsync(Delivery delivery, string reason, CancellationToken cancellationToken)
    {
        await outbound.DeadLetterAsync(delivery, reason, cancellationToken);
        stats.AddDeadLettered();
        ConsumerLog.DeadLettered(logger, delivery.DeliveryTag, reason);
    }
}
