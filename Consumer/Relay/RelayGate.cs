using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Telemetry;
using Polly.CircuitBreaker;

namespace Notifications.Consumer.Relay;

/// <summary>
/// Brings the consuming channels in line with the relay breaker and the infrastructure breaker: consuming while both are
/// closed; while either is not, no consumer on the work queues (so the broker keeps the messages instead of pushing them to
/// handlers that can only hand them back or wait). Once the relay's break is over (and the database and broker work), one
/// message is taken with basic.get as the probe, from whichever lane has one, the urgent lane first. Its send through the
/// breaker decides: success closes the breaker and consuming resumes. The infrastructure breaker needs no message of its
/// own: a delivery already in hand, waiting, is its probe (<see cref="InfrastructureBreaker"/>).
/// </summary>
internal sealed class RelayGate(RelayBreaker breaker, InfrastructureBreaker infrastructure, TimeProvider time, ILogger logger)
{
    // Without a change of the breaker, the supervisor looks again this often (reopened channels, the probe's time).
    private static readonly TimeSpan Tick = TimeSpan.FromSeconds(1);

    /// <summary>Waits for a change of the relay breaker's state, or a tick.</summary>
    public Task WaitAsync(CancellationToken cancellationToken) => breaker.WaitForChangeAsync(Tick, cancellationToken);

    /// <summary>Starts or stops consuming on every open channel and takes a probe when one is due. Never throws but for cancellation.</summary>
    public async Task ApplyAsync(IReadOnlyList<ConsumerChannel> channels, CancellationToken cancellationToken)
    {
        try
        {
            var state = breaker.State;
            bool working = infrastructure.State == CircuitState.Closed;
            foreach (var channel in channels)
            {
                await (state == CircuitState.Closed && working ? channel.ConsumeAsync(cancellationToken) : channel.CancelAsync(cancellationToken));
            }

            // HalfOpen: a probe is under way. Open and due: the next send is let through as the probe.
            if (state == CircuitState.Open && working && time.GetUtcNow() >= breaker.ProbeAt)
            {
                await TakeProbeAsync(channels, cancellationToken);
            }
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            ConsumerLog.RelayGateFailed(logger, ex);
        }
    }

    // One basic.get on one open channel of each lane, the urgent lane first, until a message is taken: a lane whose queue is
    // empty must not keep the other's messages from the probe (an empty queue answers at once).
    private static async Task TakeProbeAsync(IReadOnlyList<ConsumerChannel> channels, CancellationToken cancellationToken)
    {
        var lanes = channels.Where(c => c.IsOpen).GroupBy(c => c.Lane.Queue).Select(lane => lane.First()).OrderByDescending(c => c.Lane.Urgent);
        foreach (var channel in lanes)
        {
            if (await channel.TakeOneAsync(cancellationToken))
            {
                return;
            }
        }
    }
}
