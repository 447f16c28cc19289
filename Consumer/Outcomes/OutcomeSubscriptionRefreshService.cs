using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Webhook;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Consumer.Outcomes;

/// <summary>
/// Keeps <see cref="OutcomeSubscriptions"/> in step with the table: the subscribed types of enabled endpoints, read whole
/// (a handful of rows) at start and every <see cref="WebhookOptions.RefreshInterval"/>, the endpoints' own interval, so a
/// subscribe, an unsubscribe or an endpoint's disable reaches every consumer within it.
/// </summary>
internal sealed class OutcomeSubscriptionRefreshService(
    IOutcomeEventStore store, OutcomeSubscriptions subscriptions, IOptions<WebhookOptions> options, TimeProvider time,
    ILogger<OutcomeSubscriptionRefreshService> logger)
    : BackgroundService
{
    private string? _shown;

    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        RefreshLoop.RunAsync(options.Value.RefreshInterval, time, RefreshAsync,
            ex => ConsumerLog.OutcomeSubscriptionsRefreshFailed(logger, subscriptions.IsLoaded, ex), stoppingToken);

    private async Task RefreshAsync(CancellationToken cancellationToken)
    {
        var types = await store.SubscribedTypesAsync(cancellationToken);
        subscriptions.Refreshed(types);
        string shown = types.Count == 0 ? "none" : string.Join(", ", types.Order(StringComparer.Ordinal));
        if (shown != _shown)
        {
            ConsumerLog.OutcomeSubscriptionsLoaded(logger, shown);
            _shown = shown;
        }
    }
}
