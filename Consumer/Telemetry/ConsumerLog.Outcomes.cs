using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Telemetry;

/// <summary>Outcome events of the consumer (EventIds 4600-4619; docs/outcome-events.md).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4600, LogLevel.Information, "Outcome event subscriptions loaded: {Types}")]
    public static partial void OutcomeSubscriptionsLoaded(ILogger logger, string types);

    [LoggerMessage(4601, LogLevel.Warning, "Outcome event subscriptions refresh failed (loaded before: {Loaded}); the copy in memory stays in use, next try at the next interval")]
    public static partial void OutcomeSubscriptionsRefreshFailed(ILogger logger, bool loaded, Exception exception);

    [LoggerMessage(4602, LogLevel.Information, "Outcome event {EventId} waits: an earlier event of its notification to the same endpoint is not settled yet")]
    public static partial void OutcomeEventWaits(ILogger logger, long eventId);
}
