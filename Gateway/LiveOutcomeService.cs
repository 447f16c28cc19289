using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Gateway;

/// <summary>
/// The live channel's outcome events (docs/outcome-events.md), every <see cref="GatewayOptions.OutcomeInterval"/>: reads the
/// subscribed event types (the acks ask that set, never the table), then reports the pending rows that expired unacked since
/// the last sweep, each once, as <c>notification.expired</c> events when an endpoint takes them. Every node sweeps; a row
/// another node's sweep holds is left to it. The sweep reads on from a little before the last expiry it reported, so a row
/// the consumer expired past its cap in a transaction that committed late is still found.
/// </summary>
internal sealed partial class LiveOutcomeService(
    ILivePendingStore store, IOutcomeEventStore events, OutcomeSubscriptions subscriptions, IOptions<GatewayOptions> options, TimeProvider time,
    ILogger<LiveOutcomeService> logger)
    : BackgroundService
{
    private const int SweepBatch = 500;
    private static readonly TimeSpan Overlap = TimeSpan.FromMinutes(1);
    private DateTimeOffset _since = DateTimeOffset.MinValue;

    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        RefreshLoop.RunAsync(options.Value.OutcomeInterval, time, RunOnceAsync, ex => LogFailed(logger, ex.Message), stoppingToken);

    private async Task RunOnceAsync(CancellationToken cancellationToken)
    {
        subscriptions.Refreshed(await events.SubscribedTypesAsync(cancellationToken));
        bool withEvents = await subscriptions.WantAsync(OutcomeEventTypes.Expired, cancellationToken);
        IReadOnlyList<DateTimeOffset> reported;
        do
        {
            reported = await store.ReportExpiredAsync(_since, SweepBatch, withEvents, cancellationToken);
            if (reported.Count > 0)
            {
                var latest = reported.Max() - Overlap;
                _since = latest > _since ? latest : _since;
                LogReported(logger, reported.Count, withEvents);
            }
        }
        while (reported.Count == SweepBatch);
    }

    [LoggerMessage(EventId = 7530, Level = LogLevel.Warning, Message = "Gateway: reading the outcome subscriptions or reporting expired live notifications failed ({Reason}); tried again")]
    private static partial void LogFailed(ILogger logger, string reason);

    [LoggerMessage(EventId = 7531, Level = LogLevel.Debug, Message = "Gateway: {Count} live notifications expired unacked, reported (events: {WithEvents})")]
    private static partial void LogReported(ILogger logger, int count, bool withEvents);
}
