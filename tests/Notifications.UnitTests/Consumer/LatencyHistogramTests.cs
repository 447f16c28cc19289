using Notifications.Consumer.Telemetry;

namespace Notifications.UnitTests.Consumer;

public sealed class LatencyHistogramTests
{
    [Fact]
    public void Percentile_UniformOneToThousandMs_WithinSixPercent()
    {
        var histogram = new LatencyHistogram();
        for (int ms = 1; ms <= 1000; ms++)
        {
            histogram.Record(TimeSpan.FromMilliseconds(ms));
        }

        Assert.InRange(histogram.Percentile(50).TotalMilliseconds, 500, 500 * 1.07);
        Assert.InRange(histogram.Percentile(99).TotalMilliseconds, 990, 1000);
        Assert.Equal(1000, histogram.Max.TotalMilliseconds);
        Assert.Equal(1000, histogram.Count);
    }

    [Fact]
    public void Percentile_Empty_Zero() => Assert.Equal(TimeSpan.Zero, new LatencyHistogram().Percentile(99));

    [Theory]
    [InlineData(0)]
    [InlineData(15)]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(1_000)]
    [InlineData(123_456_789)]
    public void Index_AnyValue_FallsInsideItsBucketsBounds(long micros)
    {
        int index = LatencyHistogram.Index(micros);

        Assert.True(LatencyHistogram.UpperBound(index) >= micros);
        Assert.True(index == 0 || LatencyHistogram.UpperBound(index - 1) < micros);
    }
}
