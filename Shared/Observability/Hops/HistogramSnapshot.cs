namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// Bucket counts at one moment (seconds; the last count is above the last bound) and the exact maximum. Percentiles are
/// interpolated linearly inside their bucket (from its lower bound, or 0, to its upper bound, or the maximum for the last)
/// and never exceed the maximum.
/// </summary>
public sealed record HistogramSnapshot(double[] Bounds, long[] Counts, double Max)
{
    /// <summary>How many recordings it holds.</summary>
    public long Count => Counts.Sum();

    /// <summary>The value below which <paramref name="percentile"/> % of the recordings fall (0 when there are none).</summary>
    public double Percentile(double percentile)
    {
        long total = Count;
        if (total == 0)
        {
            return 0;
        }

        double rank = Math.Max(1, total * percentile / 100.0);
        long before = 0;
        for (int i = 0; i < Counts.Length; i++)
        {
            if (Counts[i] > 0 && before + Counts[i] >= rank)
            {
                double lower = i == 0 ? 0 : Bounds[i - 1];
                double upper = i < Bounds.Length ? Math.Min(Bounds[i], Max) : Max;
                double value = lower + ((upper - lower) * (rank - before) / Counts[i]);
                return Math.Min(Math.Max(value, Math.Min(lower, Max)), Max);
            }

            before += Counts[i];
        }

        return Max;
    }

    /// <summary>How many recordings were at most <paramref name="bound"/>, which must be one of <see cref="Bounds"/>.</summary>
    public long CountAtOrBelow(double bound)
    {
        int index = Array.IndexOf(Bounds, bound);
        if (index < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(bound), bound, "not a bucket bound of this histogram");
        }

        return Counts.Take(index + 1).Sum();
    }

    /// <summary>This and <paramref name="other"/> together (same bounds).</summary>
    public HistogramSnapshot Merge(HistogramSnapshot other)
    {
        if (!Bounds.AsSpan().SequenceEqual(other.Bounds))
        {
            throw new ArgumentException("histograms with different bucket bounds cannot be merged", nameof(other));
        }

        return new HistogramSnapshot(Bounds, [.. Counts.Zip(other.Counts, (a, b) => a + b)], Math.Max(Max, other.Max));
    }
}
