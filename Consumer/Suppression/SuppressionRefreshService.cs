using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// Keeps <see cref="SuppressionCache"/> in step with the table for the whole fleet: one full load at start, then every
/// <see cref="SuppressionOptions.RefreshInterval"/> the rows changed since the watermark less the overlap (removals
/// arrive as tombstones). A failed read is logged and tried again at the next tick; the copy it has stays in use.
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
            var all = await store.ChangesSinceAsync(null, cancellationToken);
            cache.Apply(all, load: true);
            ConsumerLog.SuppressionLoaded(logger, cache.Count);
            return;
        }

        // Nothing seen yet (an empty table): read everything changed since a while back, which may include removals.
        var since = (cache.Watermark ?? time.GetUtcNow()) - o.RefreshOverlap;
        cache.Apply(await store.ChangesSinceAsync(since, cancellationToken), load: false);
    }
}
