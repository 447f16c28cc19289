using Notifications.Shared.Observability.Hops;

namespace Notifications.Consumer.Telemetry;

/// <summary>
/// The delivery SLO between two progress reports, read from the end-to-end histogram's buckets (1 s and 120 s are bounds):
/// the share of the deliveries since the previous <see cref="Next"/> that took at most 2 minutes, and at most 1 second.
/// The fleet-wide SLO over a sliding window is Prometheus's (docs/operations.md).
/// </summary>
internal sealed class SloProgress(HopRecorder hops)
{
    private const string EndToEnd = "end_to_end";
    private long _total;
    private long _withinFast;
    private long _withinSlo;

    /// <summary>The shares since the previous call (NaN when nothing was delivered in between).</summary>
    public (double WithinSlo, double WithinFast) Next()
    {
        var snapshot = hops.Snapshot(EndToEnd);
        long total = snapshot.Count, fast = snapshot.CountAtOrBelow(1), slo = snapshot.CountAtOrBelow(120);
        long delivered = total - _total;
        var shares = delivered == 0
            ? (double.NaN, double.NaN)
            : ((double)(slo - _withinSlo) / delivered, (double)(fast - _withinFast) / delivered);
        (_total, _withinFast, _withinSlo) = (total, fast, slo);
        return shares;
    }
}
