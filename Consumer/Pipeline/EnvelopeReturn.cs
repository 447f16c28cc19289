using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// Puts an envelope's unsettled items back into the work queue as one message at the tail, and its parked items into a
/// delay queue as another, then acks the envelope. A publish the broker does not take for now is tried again until it goes
/// through (<see cref="InfrastructureBreaker"/>) while the envelope is held, a message confirmed in one try not published
/// again in the next: an envelope is never requeued whole, its settled items with it, because its return failed. It gives
/// up only when the channel closes or is recovered (the broker then redelivers the envelope whole, as after a crash) or when
/// <c>stopping</c> fires (the consumer's shutdown ran out of time): then it says false (logged, 4017) and the
/// caller requeues the envelope whole, whose settled items the delivery log recognises.
/// </summary>
internal sealed class EnvelopeReturn(
    OutboundPublisher outbound, AckBatcher acks, InfrastructureBreaker infrastructure, CancellationToken stopping, ILogger logger)
{
    public async Task<bool> TryAsync(
        ulong deliveryTag, long generation, IReadOnlyList<Delivery> back, (IReadOnlyList<Delivery> Items, TimeSpan For) parked,
        IDictionary<string, object?>? headers)
    {
        var moves = new Moves(back, parked.Items, parked.For, headers);
        try
        {
            bool returned = await infrastructure.RunAsync(
                async ct =>
                {
                    // A closed (or recovered) channel's deliveries go back on their own: nothing is put back beside them.
                    if (!acks.Holds(deliveryTag, generation))
                    {
                        return false;
                    }

                    await moves.PublishAsync(outbound, ct);
                    return true;
                },
                stopping);
            if (returned)
            {
                await acks.AckAsync(deliveryTag, generation);
            }

            return returned;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            ConsumerLog.EnvelopeReturnFailed(logger, deliveryTag, back.Count + parked.Items.Count, ex);
            return false;
        }
    }

    // The envelope's two messages, each published until confirmed once.
    private sealed class Moves(IReadOnlyList<Delivery> back, IReadOnlyList<Delivery> parked, TimeSpan parkFor, IDictionary<string, object?>? headers)
    {
        private bool _backDone = back.Count == 0;
        private bool _parkedDone = parked.Count == 0;

        public async Task PublishAsync(OutboundPublisher outbound, CancellationToken cancellationToken)
        {
            if (!_backDone)
            {
                await outbound.ReturnAsync(back, headers, cancellationToken);
                _backDone = true;
            }

            if (!_parkedDone)
            {
                await outbound.ParkAsync(parked, headers, parkFor, cancellationToken);
                _parkedDone = true;
            }
        }
    }
}
