using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.Settling;

/// <summary>
/// The ways a handler ends a delivery other than a send: a retry through its delay queue, a dead letter (recorded, then
/// published), a requeue while the relay's breaker is open or a park while a destination turns sends away, a forward to a
/// rate-limit lane. Each publishes its copy with a confirm before the original is acked. A copy the broker (or the dead
/// letter's record, the database) does not take for now is tried again until it goes through, the original kept meanwhile,
/// unspent (<see cref="InfrastructureBreaker"/>); one that fails otherwise gives the original back after a pause. A retry
/// records its failed attempt in the delivery log first (the notification's story).
/// </summary>
internal sealed class DeliverySettler(
    OutboundPublisher outbound, InfrastructureBreaker infrastructure, RabbitMqOptions rabbit, ConsumerStats stats, ILogger logger, DeliveryLog log)
{
    public async Task RetryOrDeadLetterAsync(Delivery delivery, string reason, CancellationToken cancellationToken)
    {
        if (delivery.Attempt > rabbit.RetryDelays.Length)
        {
            await DeadLetterAsync(delivery, $"gave up after {delivery.Attempt} attempts: {reason}", cancellationToken);
            return;
        }

        try
        {
            await RecordFailedAttemptAsync(log, delivery, reason, cancellationToken);
            await infrastructure.RunAsync(ct => outbound.RetryAsync(delivery, delivery.Attempt, ct), cancellationToken);
            stats.AddRetried();
            await delivery.AckAsync();
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            await GiveBackAsync(delivery, ex, cancellationToken);
        }
    }

    public async Task DeadLetterAsync(Delivery delivery, string reason, CancellationToken cancellationToken)
    {
        try
        {
            await infrastructure.RunAsync(ct => outbound.DeadLetterAsync(delivery, reason, ct), cancellationToken);
            stats.AddDeadLettered();
            ConsumerLog.DeadLettered(logger, delivery.DeliveryTag, reason);
            await delivery.AckAsync();
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            await GiveBackAsync(delivery, ex, cancellationToken);
        }
    }

    // True when the attempt already has its dead letter recorded: published again with that key, then acked.
    public async Task<bool> FinishDeadLetterAsync(Delivery delivery, CancellationToken cancellationToken)
    {
        try
        {
            if (!await infrastructure.RunAsync(ct => outbound.FinishDeadLetterAsync(delivery, ct), cancellationToken))
            {
                return false;
            }

            stats.AddDeadLettered();
            await delivery.AckAsync();
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            await GiveBackAsync(delivery, ex, cancellationToken);
        }

        return true;
    }

    /// <summary>The failed attempt of a notification that is tried again, for its story; a message without an id has none.</summary>
    public static Task RecordFailedAttemptAsync(DeliveryLog log, Delivery delivery, string reason, CancellationToken cancellationToken) =>
        DeadLetterKey.NotificationIdOf(delivery) is { } id ? log.RecordFailedAttemptAsync(id, delivery, reason, cancellationToken) : Task.CompletedTask;

    // The retry or dead letter failed for a reason that is neither the database's nor the broker's (those are waited out):
    // return the original to the queue after a pause (or, if the channel is gone too, the broker requeues it on its own).
    public async Task GiveBackAsync(Delivery delivery, Exception ex, CancellationToken cancellationToken)
    {
        ConsumerLog.GiveBack(logger, delivery.DeliveryTag, ex);
        await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken);
        try
        {
            await delivery.RequeueAsync();
        }
        catch (Exception requeueFailed)
        {
            ConsumerLog.RequeueFailed(logger, delivery.DeliveryTag, requeueFailed);
        }
    }

    // Turned away before any send, attempt unchanged. By the relay's open breaker: back into the work queue in its place
    // (basic.nack with requeue), where no consumer takes it until the breaker closes. By its destination (an endpoint's or
    // provider's breaker open, or a Retry-After pause): parked for parkFor, while this consumer goes on with the other
    // destinations' messages.
    public async Task RejectedAsync(Delivery delivery, RelayBreaker breaker, TimeSpan parkFor, CancellationToken cancellationToken)
    {
        stats.AddHeldBack(breaker);
        if (breaker.Gated)
        {
            await delivery.RequeueAsync();
            return;
        }

        await ParkAsync(delivery, parkFor, cancellationToken);
    }

    /// <summary>Parked for <paramref name="wait"/>, attempt unchanged, for a reason of its own (a push copy waiting for its live delivery's ack).</summary>
    public Task WaitAsync(Delivery delivery, TimeSpan wait, CancellationToken cancellationToken) => ParkAsync(delivery, wait, cancellationToken);

    // Parked in a delay queue for wait, attempt unchanged, until about when its destination takes sends again: then it is
    // handed out again, and one still turned away is parked again. An envelope item is settled in its envelope, parked with
    // the envelope's other parked items as one message once the last item is settled: nothing brings it back with the envelope.
    private async Task ParkAsync(Delivery delivery, TimeSpan wait, CancellationToken cancellationToken)
    {
        if (delivery.SettlesWithEnvelope)
        {
            await delivery.ParkWithEnvelopeAsync(wait);
            return;
        }

        try
        {
            await infrastructure.RunAsync(ct => outbound.ParkAsync(delivery, wait, ct), cancellationToken);
            await delivery.AckAsync();
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            await GiveBackAsync(delivery, ex, cancellationToken);
        }
    }

    // A send that failed with its destination turning sends away (its breaker not closed, or a Retry-After pause), attempt
    // unchanged. The relay's: a copy goes to the work queue's tail (not its head, where the
    // next probe would take the same message again), then the original is acked; an envelope item not settled yet goes back
    // with its envelope's other unfinished items, as one message, never on its own beside an envelope that a sibling's requeue
    // would bring back with it. An endpoint's or provider's: parked.
    public async Task ReturnUnspentAsync(
        Delivery delivery, RelayBreaker breaker, TimeSpan parkFor, long notificationId, CancellationToken cancellationToken)
    {
        if (!breaker.Gated)
        {
            await ParkAsync(delivery, parkFor, cancellationToken);
            return;
        }

        if (delivery.SettlesWithEnvelope)
        {
            await delivery.ReturnWithEnvelopeAsync();
            return;
        }

        try
        {
            await infrastructure.RunAsync(ct => outbound.ReturnAsync(delivery, ct), cancellationToken);
            await delivery.AckAsync();
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            ConsumerLog.ReturnFailed(logger, notificationId, ex);
            await GiveBackAsync(delivery, ex, cancellationToken);
        }
    }

    // Moved unchanged (same attempt) to another queue, then acked; the original stays if the copy is not confirmed.
    public async Task ForwardAsync(Delivery delivery, string queue, CancellationToken cancellationToken)
    {
        try
        {
            await infrastructure.RunAsync(ct => outbound.ForwardAsync(delivery, queue, ct), cancellationToken);
            await delivery.AckAsync();
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            await GiveBackAsync(delivery, ex, cancellationToken);
        }
    }
}
