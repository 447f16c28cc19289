using Notifications.Shared.Observability.Hops;

namespace Notifications.UnitTests.Observability.Hops;

public sealed class HistogramSnapshotTests
{
    private static HistogramSnapshot Recorded(params double[] values)
    {
        var histogram = new BucketHistogram(LatencyBuckets.EndToEnd);
        foreach (double value in values)
        {
            histogram.Record(value);
        }

        return histogram.Snapshot();
    }

    [Fact]
    public void Percentile_UniformInOneBucket_InterpolatedWithinIt()
    {
        // 100 recordings spread over (4 ms, 5 ms]: the bucket's lower bound plus the rank's share of its width (up to the max).
        var snapshot = Recorded([.. Enumerable.Range(0, 100).Select(i => 0.0040005 + (i * 0.00001))]);

        Assert.Equal(0.004 + (0.0009905 * 0.50), snapshot.Percentile(50), 9);
        Assert.Equal(0.004 + (0.0009905 * 0.99), snapshot.Percentile(99), 9);
        Assert.Equal(0.0049905, snapshot.Max, 9);
    }

    [Fact]
    public void Percentile_TailInAHigherBucket_P99FindsTheTailAndMaxIsExact()
    {
        // 990 at 2.5 ms (bucket 2-3 ms), 10 at 37 ms (bucket 30-40 ms).
        var snapshot = Recorded([.. Enumerable.Repeat(0.0025, 990), .. Enumerable.Repeat(0.037, 10)]);

        Assert.InRange(snapshot.Percentile(50), 0.002, 0.003);
        Assert.InRange(snapshot.Percentile(99), 0.002, 0.003);
        Assert.InRange(snapshot.Percentile(99.5), 0.030, 0.037);
        Assert.Equal(0.037, snapshot.Max, 9);
        Assert.Equal(1000, snapshot.Count);
    }

    [Fact]
    public void Percentile_NeverAboveTheExactMax()
    {
        var snapshot = Recorded(0.0101);

        Assert.Equal(0.0101, snapshot.Percentile(99), 9);
        Assert.Equal(0.0101, snapshot.Percentile(50), 9);
    }

    [Fact]
    public void Percentile_AboveTheLastBound_InterpolatedUpToTheMax()
    {
        var snapshot = Recorded(5000, 7000);

        Assert.Equal(7000, snapshot.Percentile(100), 6);
        Assert.InRange(snapshot.Percentile(50), 3600, 7000);
    }

    [Fact]
    public void Percentile_Empty_Zero() => Assert.Equal(0, Recorded().Percentile(99));

    [Fact]
    public void Record_ValueOnABound_CountsInThatBucket()
    {
        var snapshot = Recorded(1, 120, 120.001);

        Assert.Equal(1, snapshot.CountAtOrBelow(1));
        Assert.Equal(2, snapshot.CountAtOrBelow(120));
    }

    [Fact]
    public void CountAtOrBelow_NotABound_Throws() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => Recorded(1).CountAtOrBelow(1.5));

    [Fact]
    public void Merge_TwoWorkers_SumsCountsAndKeepsTheLargerMax()
    {
        var merged = Recorded(0.001, 0.002).Merge(Recorded(0.003, 0.050));

        Assert.Equal(4, merged.Count);
        Assert.Equal(0.050, merged.Max, 9);
    }

    [Fact]
    public void Merge_DifferentBounds_Throws()
    {
        var hop = new BucketHistogram(LatencyBuckets.Hop).Snapshot();

        Assert.Throws<ArgumentException>(() => Recorded(1).Merge(hop));
    }
}
