using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// Keeps <see cref="SuppressionCache"/> in step with the table for the whole fleet: one load at start (at most
/// <see cref="SuppressionOptions.CacheEntries"/> + 1 entries: all of them, or the sign that the list is looked up on demand),
/// then every <see cref="SuppressionOptions.RefreshInterval"/> the rows changed since the watermark less the overlap, read as
/// they arrive (removals come as tombstones). A failed read is logged and tried again at the next tick; the copy it has stays in use.
/// </summary>
internal sealed class SuppressionRefreshService(
    ISuppressionStore store, SuppressionCache cache, IOptions<SuppressionOptions> options, TimeProvider time, ILogger<SuppressionRefreshService> logger)
    : BackgroundService
{
    protected override Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var o = options.Value;
        return RefreshLoop.RunAsync(
            o.RefreshInterval, time, token => RefreshAsync(o, token), ex => ConsumerLog.SuppressionRefreshFailed(logger, cache.IsLoaded, ex), stoppingToken);
    }

    private async Task RefreshAsync(SuppressionOptions o, CancellationToken cancellationToken)
    {
        if (!cache.IsLoaded)
        {
            cache.Load(await store.LoadAsync(cache.Capacity + 1, cancellationToken));
            if (cache.IsWhole)
            {
                ConsumerLog.SuppressionLoaded(logger, cache.Count);
            }
            else
            {
                ConsumerLog.SuppressionOnDemand(logger, cache.Capacity);
            }

            return;
        }

        // Nothing seen yet (an empty table): read everything changed since a while back, which may include removals.
        var since = (cache.Watermark ?? time.GetUtcNow()) - o.RefreshOverlap;
        bool wasWhole = cache.IsWhole;
        await foreach (var row in store.ChangesSinceAsync(since, cancellationToken))
        {
            cache.Apply(row);
        }

        if (wasWhole && !cache.IsWhole)
        {
            ConsumerLog.SuppressionOnDemand(logger, cache.Capacity);
        }
    }
}
