using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Progress messages of the consumer (EventIds 4050-4069, kept apart from the rest).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4050, LogLevel.Information, "Consumer progress: {Delivered} delivered ({Rate:F0}/s), {Duplicates} duplicates, {Retried} retried, {DeadLettered} dead-lettered, {InFlight} in flight; relay breaker {RelayBreaker} ({RelayRejected} sends held back); endpoint/provider breakers {DestinationsOpen} open ({DestinationRejected} sends held back); since the last report {WithinSlo:P1} within 2 min, {WithinFast:P1} within 1 s of insert")]
    public static partial void ProgressReport(
        ILogger logger, long delivered, double rate, long duplicates, long retried, long deadLettered, long inFlight, string relayBreaker, long relayRejected,
        int destinationsOpen, long destinationRejected, double withinSlo, double withinFast);
}
