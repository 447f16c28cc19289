using System.Diagnostics.Metrics;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Suppression;

/// <summary>The suppression list's instruments, on the consumer's meter (<see cref="ConsumerMetrics.MeterName"/>), exported on <c>/metrics</c>.</summary>
internal sealed class SuppressionMetrics
{
    private readonly Counter<long> _suppressed;
    private readonly Counter<long> _added;

    public SuppressionMetrics(IMeterFactory meters, SuppressionCache cache)
    {
        var meter = meters.Create(ConsumerMetrics.MeterName);
        _suppressed = meter.CreateCounter<long>("notifications.suppressed", "{notification}", "Notifications not sent: the recipient or its domain is on the suppression list");
        _added = meter.CreateCounter<long>("notifications.suppression.added", "{entry}", "Suppression entries this consumer wrote, by reason (hard_bounce, unsubscribed)");
        meter.CreateObservableGauge("notifications.suppression.entries", () => cache.Count, "{entry}", "Suppression entries in force in this consumer's copy");
        _suppressed.Add(0);
    }

    public void Suppressed() => _suppressed.Add(1);

    public void Added(string reason) => _added.Add(1, new KeyValuePair<string, object?>("reason", reason));
}
