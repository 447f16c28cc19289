namespace Notifications.Harness.Live;

/// <summary>How the clients connected: how many, how many failed, the wall time for all, and each upgrade's time (ms).</summary>
internal sealed record LiveConnectResult(int Connected, int Failed, double Seconds, double P50Ms, double P99Ms, double MaxMs, string? FirstError)
{
    /// <summary>From each connected client's upgrade time (ms, any order).</summary>
    public static LiveConnectResult Of(IEnumerable<double> upgradeMs, int failed, double seconds, string? firstError)
    {
        var sorted = upgradeMs.Order().ToList();
        return new LiveConnectResult(sorted.Count, failed, seconds, UrgentFlow.Percentile(sorted, 0.50), UrgentFlow.Percentile(sorted, 0.99),
            sorted.Count == 0 ? 0 : sorted[^1], firstError);
    }
}
