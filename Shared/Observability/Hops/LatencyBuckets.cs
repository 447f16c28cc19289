namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// Explicit bucket boundaries (seconds) of the latency histograms: fine enough under 10 ms to tell a 2 ms p99 from a 5 ms
/// one, coarse above. A percentile read from them is interpolated linearly inside its bucket, so it is exact to within that
/// bucket's width (0.25 ms up to 1 ms, 1 ms up to 6 ms, 2 ms up to 10 ms, then 20-50 % of the value).
/// </summary>
public static class LatencyBuckets
{
    /// <summary>One hop: 0.25 ms to 10 s.</summary>
    public static readonly double[] Hop =
    [
        0.00025, 0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.008, 0.010, 0.0125, 0.015, 0.020, 0.025, 0.030, 0.040,
        0.050, 0.075, 0.100, 0.150, 0.200, 0.250, 0.300, 0.400, 0.500, 0.750, 1, 2, 5, 10,
    ];

    /// <summary>End to end: the hop buckets, then up to an hour; 1 s and 120 s (the SLO's thresholds) are bounds.</summary>
    public static readonly double[] EndToEnd = [.. Hop, 30, 60, 120, 300, 600, 1800, 3600];
}
