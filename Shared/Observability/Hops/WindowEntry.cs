namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// The end-to-end latency of the deliveries of one window (<see cref="HopRecorder.WindowLength"/>, aligned on the Unix
/// epoch so that the windows of several workers line up), in milliseconds, with its bucket counts for merging.
/// </summary>
/// <param name="Start">The window's start.</param>
/// <param name="Count">Deliveries in it.</param>
/// <param name="P50Ms">Median.</param>
/// <param name="P99Ms">99th percentile.</param>
/// <param name="MaxMs">The exact maximum.</param>
/// <param name="BoundsMs">The bucket bounds.</param>
/// <param name="Counts">Recordings per bucket.</param>
public sealed record WindowEntry(DateTimeOffset Start, long Count, double P50Ms, double P99Ms, double MaxMs, double[] BoundsMs, long[] Counts)
{
    /// <summary>The entry of a window's histogram recorded in seconds.</summary>
    public static WindowEntry From(DateTimeOffset start, HistogramSnapshot seconds)
    {
        var ms = HopEntry.InMilliseconds(seconds);
        return new(start, ms.Count, ms.Percentile(50), ms.Percentile(99), ms.Max, ms.Bounds, ms.Counts);
    }

    /// <summary>The histogram in milliseconds.</summary>
    public HistogramSnapshot ToSnapshot() => new(BoundsMs, Counts, MaxMs);
}
