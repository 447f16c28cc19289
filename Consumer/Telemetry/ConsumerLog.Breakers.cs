using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>The breakers of one destination (a webhook endpoint, a push provider), not the relay's (EventIds 4307-4309).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4307, LogLevel.Warning, "Circuit breaker {Name} opened: at least {FailureRatio:P0} of its sends in {SamplingDuration} failed, the last with: {Reason}. Its messages are parked in a delay queue without spending attempts, the other destinations' go on; one is sent as a probe every {BreakDuration}")]
    public static partial void DestinationBreakerOpened(ILogger logger, string name, double failureRatio, TimeSpan samplingDuration, string reason, TimeSpan breakDuration);

    [LoggerMessage(4308, LogLevel.Information, "Circuit breaker {Name} closed after {OpenFor}: the probe send went through")]
    public static partial void DestinationBreakerClosed(ILogger logger, string name, TimeSpan openFor);

    [LoggerMessage(4309, LogLevel.Debug, "Circuit breaker {Name}: probe failed; it stays open for another {BreakDuration}: {Reason}")]
    public static partial void DestinationProbeFailed(ILogger logger, string name, TimeSpan breakDuration, string reason);
}
