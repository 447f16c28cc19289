using Microsoft.Extensions.Logging;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Telemetry;
using Polly.CircuitBreaker;

namespace Notifications.Consumer.Relay;

/// <summary>
/// Brings the consuming channels in line with the relay breaker: consuming while it is closed; while it is
/// open, no consumer on the work queue (so the broker keeps the messages instead of pushing them to handlers
/// that can only hand them back), and once the break is over one message taken with basic.get as the probe.
/// Its send through the breaker decides: success closes the breaker and consuming resumes.
/// </summary>
internal sealed class RelayGate(RelayBreaker breaker, TimeProvider time, ILogger logger)
{
    // Without a change of the breaker, the supervisor looks again this often (reopened channels, the probe's time).
    private static readonly TimeSpan Tick = TimeSpan.FromSeconds(1);

    /// <summary>Waits for a change of the breaker's state, or a tick.</summary>
    public Task WaitAsync(CancellationToken cancellationToken) => breaker.WaitForChangeAsync(Tick, cancellationToken);

    /// <summary>Starts or stops consuming on every open channel and takes a probe when one is due. Never throws but for cancellation.</summary>
    public async Task ApplyAsync(IReadOnlyList<ConsumerChannel> channels, CancellationToken cancellationToken)
    {
        try
        {
            var state = breaker.State;
            foreach (var channel in channels)
            {
                await (state == CircuitState.Closed ? channel.ConsumeAsync(cancellationToken) : channel.CancelAsync(cancellationToken));
            }

            // HalfOpen: a probe is under way. Open and due: the next send is let through as the probe.
            if (state == CircuitState.Open && time.GetUtcNow() >= breaker.ProbeAt && channels.FirstOrDefault(c => c.IsOpen) is { } probe)
            {
                await probe.TakeOneAsync(cancellationToken);
            }
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            ConsumerLog.RelayGateFailed(logger, ex);
        }
    }
}
