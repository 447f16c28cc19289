namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// One hop of a worker's report (JSON, read by the harness): its percentiles in milliseconds and its bucket counts, so
/// that the reports of several workers can be merged exactly (<see cref="ToSnapshot"/>).
/// </summary>
/// <param name="Hop">The hop's name.</param>
/// <param name="Lane"><c>all</c>, <c>urgent</c> or <c>standard</c>.</param>
/// <param name="Count">Recordings.</param>
/// <param name="P50Ms">Median, interpolated in its bucket.</param>
/// <param name="P95Ms">95th percentile, interpolated in its bucket.</param>
/// <param name="P99Ms">99th percentile, interpolated in its bucket.</param>
/// <param name="MaxMs">The exact maximum.</param>
/// <param name="BoundsMs">The bucket bounds.</param>
/// <param name="Counts">Recordings per bucket; the last is above the last bound.</param>
public sealed record HopEntry(string Hop, string Lane, long Count, double P50Ms, double P95Ms, double P99Ms, double MaxMs, double[] BoundsMs, long[] Counts)
{
    /// <summary>The entry of a histogram recorded in seconds.</summary>
    public static HopEntry From(string hop, string lane, HistogramSnapshot seconds)
    {
        var ms = InMilliseconds(seconds);
        return new(hop, lane, ms.Count, ms.Percentile(50), ms.Percentile(95), ms.Percentile(99), ms.Max, ms.Bounds, ms.Counts);
    }

    /// <summary>The histogram in milliseconds.</summary>
    public HistogramSnapshot ToSnapshot() => new(BoundsMs, Counts, MaxMs);

    internal static HistogramSnapshot InMilliseconds(HistogramSnapshot seconds) =>
        new([.. seconds.Bounds.Select(b => Math.Round(b * 1000, 6))], seconds.Counts, seconds.Max * 1000);
}
