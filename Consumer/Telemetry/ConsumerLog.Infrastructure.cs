using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>The consumer's database and broker failing: the infrastructure breaker (EventIds 4020-4024).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4020, LogLevel.Warning, "Database or broker failed; the delivery waits, unspent, and the step is tried again in {Pause}: {Reason}")]
    public static partial void InfrastructureFailed(ILogger logger, string reason, TimeSpan pause);

    [LoggerMessage(4021, LogLevel.Debug, "Database or broker still failing (try {Attempt}); trying again in {Pause}: {Reason}")]
    public static partial void InfrastructureStillFailing(ILogger logger, int attempt, string reason, TimeSpan pause);

    [LoggerMessage(4022, LogLevel.Warning, "Infrastructure circuit breaker opened: at least {FailureRatio:P0} of the database and broker operations in {SamplingDuration} failed. Consumers stop taking work; the deliveries in hand wait, unacked, without spending attempts; one operation is tried as a probe every {BreakDuration}. The last failure: {Reason}")]
    public static partial void InfrastructureBreakerOpened(ILogger logger, double failureRatio, TimeSpan samplingDuration, string reason, TimeSpan breakDuration);

    [LoggerMessage(4023, LogLevel.Information, "Infrastructure circuit breaker closed after {OpenFor}: the probe went through; consuming again")]
    public static partial void InfrastructureBreakerClosed(ILogger logger, TimeSpan openFor);

    [LoggerMessage(4024, LogLevel.Debug, "Infrastructure probe failed; the breaker stays open for another {BreakDuration}: {Reason}")]
    public static partial void InfrastructureProbeFailed(ILogger logger, TimeSpan breakDuration, string reason);
}
