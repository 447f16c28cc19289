using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// Puts an envelope's unsettled items back into the work queue as one message at the tail, then acks the envelope. A publish
/// the broker does not take for now is tried again until it goes through (<see cref="InfrastructureBreaker"/>) while the
/// envelope is held: an envelope is never requeued whole, its settled items with it, because its return failed. It gives up
/// only when the channel closes or is recovered (the broker then redelivers the envelope whole, as after a crash) or when
/// <c>stopping</c> fires (the consumer's shutdown ran out of time): then it says false (logged, 4017) and the
/// caller requeues the envelope whole, whose settled items the delivery log recognises.
/// </summary>
internal sealed class EnvelopeReturn(
    OutboundPublisher outbound, AckBatcher acks, InfrastructureBreaker infrastructure, CancellationToken stopping, ILogger logger)
{
    public async Task<bool> TryAsync(ulong deliveryTag, long generation, IReadOnlyList<Delivery> back, IDictionary<string, object?>? headers)
    {
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

                    await outbound.ReturnAsync(back, headers, ct);
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
            ConsumerLog.EnvelopeReturnFailed(logger, deliveryTag, back.Count, ex);
            return false;
        }
    }
}
