using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// Keeps <see cref="WebhookEndpoints"/> in step with the table for the whole fleet: one full load at start, then every
/// <see cref="WebhookOptions.RefreshInterval"/> the rows changed since the watermark less the overlap, so a disable or a
/// rotation reaches every consumer within the interval. A failed read is logged and tried again; the copy in memory stays in use.
/// </summary>
internal sealed class WebhookEndpointRefreshService(
    IWebhookEndpointStore store, WebhookEndpoints endpoints, WebhookSigner signer, IOptions<WebhookOptions> options, TimeProvider time,
    ILogger<WebhookEndpointRefreshService> logger)
    : BackgroundService
{
    protected override Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var o = options.Value;
        return RefreshLoop.RunAsync(o.RefreshInterval, time, token => RefreshAsync(o, token), ex => WebhookLog.RefreshFailed(logger, endpoints.IsLoaded, ex), stoppingToken);
    }

    // Only a read that succeeded moves the cache's watermark (WebhookEndpoints.Refreshed): after failures the next read
    // starts where the last good one ended, so nothing changed in between is skipped.
    private async Task RefreshAsync(WebhookOptions o, CancellationToken cancellationToken)
    {
        bool load = !endpoints.IsLoaded;
        endpoints.Refreshed(await store.ChangesSinceAsync(endpoints.RefreshFrom(o.RefreshOverlap), cancellationToken));
        if (load)
        {
            WebhookLog.Loaded(logger, endpoints.Count);
        }

        var now = time.GetUtcNow();
        signer.Retain(endpoints.All.SelectMany(e => e.SigningSecrets(now)).ToHashSet(StringComparer.Ordinal));
    }
}
