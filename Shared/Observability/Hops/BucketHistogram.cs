namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// Counts per explicit bucket (the same boundaries the exported histogram has) and the exact maximum; lock-free and
/// allocation-free to record, for the in-process report.
/// </summary>
internal sealed class BucketHistogram(double[] bounds)
{
    private readonly long[] _counts = new long[bounds.Length + 1];
    private long _maxBits = BitConverter.DoubleToInt64Bits(0);

    public double[] Bounds => bounds;

    public void Record(double value)
    {
        int index = Array.BinarySearch(bounds, value);
        // Upper bounds are inclusive, as in Prometheus (le) and OpenTelemetry.
        Interlocked.Increment(ref _counts[index >= 0 ? index : ~index]);
        long seen;
        while (value > BitConverter.Int64BitsToDouble(seen = Interlocked.Read(ref _maxBits))
            && Interlocked.CompareExchange(ref _maxBits, BitConverter.DoubleToInt64Bits(value), seen) != seen)
        {
        }
    }

    public HistogramSnapshot Snapshot()
    {
        long[] counts = new long[_counts.Length];
        for (int i = 0; i < counts.Length; i++)
        {
            counts[i] = Interlocked.Read(ref _counts[i]);
        }

        return new HistogramSnapshot(bounds, counts, BitConverter.Int64BitsToDouble(Interlocked.Read(ref _maxBits)));
    }
}
