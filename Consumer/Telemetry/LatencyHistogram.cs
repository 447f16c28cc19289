namespace Notifications.Consumer.Telemetry;

/// <summary>
/// A lock-free log-linear histogram of durations (16 sub-buckets per power of two of microseconds:
/// percentiles within ~6 %), cheap enough to record every delivery on the hot path.
/// </summary>
internal sealed class LatencyHistogram
{
    private const int SubBuckets = 16;
    private const int Powers = 40;
    private readonly long[] _counts = new long[Powers * SubBuckets];
    private long _maxMicros;

    public long Count => _counts.Sum();

    public void Record(TimeSpan latency)
    {
        long micros = Math.Max(0, (long)latency.TotalMicroseconds);
        Interlocked.Increment(ref _counts[Index(micros)]);
        long max;
        while (micros > (max = Interlocked.Read(ref _maxMicros)) && Interlocked.CompareExchange(ref _maxMicros, micros, max) != max)
        {
        }
    }

    /// <summary>The duration at or below which <paramref name="percentile"/> % of recordings fall (an upper bound of its bucket).</summary>
    public TimeSpan Percentile(double percentile)
    {
        long[] counts = _counts.Select(c => Interlocked.Read(ref c)).ToArray();
        long total = counts.Sum();
        if (total == 0)
        {
            return TimeSpan.Zero;
        }

        long rank = (long)Math.Ceiling(total * percentile / 100.0);
        long seen = 0;
        for (int i = 0; i < counts.Length; i++)
        {
            seen += counts[i];
            if (seen >= Math.Max(rank, 1))
            {
                return TimeSpan.FromMicroseconds(Math.Min(UpperBound(i), Interlocked.Read(ref _maxMicros)));
            }
        }

        return Max;
    }

    public TimeSpan Max => TimeSpan.FromMicroseconds(Interlocked.Read(ref _maxMicros));

    internal static int Index(long micros)
    {
        if (micros < SubBuckets)
        {
            return (int)micros;
        }

        int power = 63 - (int)long.LeadingZeroCount(micros);       // micros in [2^power, 2^(power+1))
        int sub = (int)((micros >> (power - 4)) & (SubBuckets - 1)); // the next 4 bits
        return Math.Min(((power - 3) * SubBuckets) + sub, (Powers * SubBuckets) - 1);
    }

    internal static long UpperBound(int index)
    {
        if (index < SubBuckets)
        {
            return index;
        }

        int power = (index / SubBuckets) + 3;
        long sub = index % SubBuckets;
        return ((SubBuckets + sub + 1) << (power - 4)) - 1;
    }
}
