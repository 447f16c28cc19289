using Microsoft.Extensions.Logging;

namespace Notifications.Producer;

/// <summary>Progress and monitoring messages of the producer (EventIds 2050-2069, kept apart from the rest).</summary>
internal static partial class ProducerLog
{
    [LoggerMessage(2050, LogLevel.Information, "Producer progress: {Published} published ({Rate:F0}/s), {Batches} batches, {Failures} failed batches, outbox backlog {Backlog}")]
    public static partial void ProgressReport(ILogger logger, long published, double rate, long batches, long failures, long backlog);

    [LoggerMessage(2051, LogLevel.Warning, "Counting the outbox backlog failed; the gauge keeps its last value")]
    public static partial void BacklogSampleFailed(ILogger logger, Exception exception);

    [LoggerMessage(2101, LogLevel.Warning, "Counting the outbox backlog failed: {Reason}; the gauge keeps its last value")]
    public static partial void BacklogSampleUnreachable(ILogger logger, string reason);
}
