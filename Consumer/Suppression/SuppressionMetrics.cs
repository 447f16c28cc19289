using System.Diagnostics.Metrics;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Suppression;

/// <summary>The suppression list's instruments, on the consumer's meter (<see cref="ConsumerMetrics.MeterName"/>), exported on <c>/metrics</c>.</summary>
internal sealed class SuppressionMetrics
{
    private readonly Counter<long> _suppressed;
    private readonly Counter<long> _added;
    private readonly Counter<long> _lookedUp;

    public SuppressionMetrics(IMeterFactory meters, SuppressionCache cache)
    {
        var meter = meters.Create(ConsumerMetrics.MeterName);
        _suppressed = meter.CreateCounter<long>("notifications.suppressed", "{notification}", "Notifications not sent: the recipient or its domain is on the suppression list");
        _added = meter.CreateCounter<long>("notifications.suppression.added", "{entry}", "Suppression entries this consumer wrote, by reason (hard_bounce, unsubscribed)");
        _lookedUp = meter.CreateCounter<long>("notifications.suppression.lookups", "{key}",
            "Keys looked up in the suppression table because this consumer's copy did not hold them (the list is larger than Suppression:CacheEntries)");
        meter.CreateObservableGauge("notifications.suppression.entries", () => cache.Count, "{entry}",
            "Suppression keys in this consumer's copy: the entries in force while the list fits in Suppression:CacheEntries, else the answers looked up (listed or not)");
        meter.CreateObservableGauge("notifications.suppression.whole", () => cache.IsWhole ? 1 : 0, "{copy}",
            "1 while this consumer holds the whole suppression list, 0 once it looks keys up on demand");
        _suppressed.Add(0);
    }

    public void Suppressed() => _suppressed.Add(1);

    public void LookedUp(int keys) => _lookedUp.Add(keys);

    public void Added(string reason) => _added.Add(1, new KeyValuePair<string, object?>("reason", reason));
}
