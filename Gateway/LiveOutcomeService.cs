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
/// another node's sweep holds is left to it. A sweep reads on from a minute before the previous one started (the first from the
/// start of the index), so a row the consumer expired past its cap in a transaction that committed late is still found.
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
        var started = time.GetUtcNow();
        int reported;
        do
        {
            reported = await store.ReportExpiredAsync(_since, SweepBatch, withEvents, cancellationToken);
            if (reported > 0)
            {
                LogReported(logger, reported, withEvents);
            }
        }
        while (reported == SweepBatch);

        // What had expired when this sweep started is reported now (but rows another node's sweep holds, its to report): the
        // next sweep reads on from a little before, not from the start of the index again.
        var next = started - Overlap;
        _since = next > _since ? next : _since;
    }

    [LoggerMessage(EventId = 7530, Level = LogLevel.Warning, Message = "Gateway: reading the outcome subscriptions or reporting expired live notifications failed ({Reason}); tried again")]
    private static partial void LogFailed(ILogger logger, string reason);

    [LoggerMessage(EventId = 7531, Level = LogLevel.Debug, Message = "Gateway: {Count} live notifications expired unacked, reported (events: {WithEvents})")]
    private static partial void LogReported(ILogger logger, int count, bool withEvents);
}
