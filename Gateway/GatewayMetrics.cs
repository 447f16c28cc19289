using System.Diagnostics.Metrics;

namespace Notifications.Gateway;

/// <summary>
/// The gateway's instruments (meter <c>Notifications.Gateway</c>), exported on its <c>/metrics</c>: what this node holds,
/// read from <see cref="Presence"/> when scraped, and the connections refused.
/// </summary>
internal sealed class GatewayMetrics
{
    public const string MeterName = "Notifications.Gateway";

    private readonly Counter<long> _refused;

    public GatewayMetrics(IMeterFactory meters, Presence presence)
    {
        var meter = meters.Create(MeterName);
        meter.CreateObservableGauge("notifications.gateway.connections", () => presence.Connections, "{connection}",
            "Apps' WebSocket connections open on this gateway node");
        meter.CreateObservableGauge("notifications.gateway.subscribers", () => presence.Subscribers, "{subscriber}",
            "Subscribers with at least one connection on this gateway node (the node's queue is bound under each)");
        _refused = meter.CreateCounter<long>("notifications.gateway.refused", "{connection}",
            "Connections refused before the upgrade (401: no token, an expired one, another key's)");
    }

    public void Refused() => _refused.Add(1);
}
