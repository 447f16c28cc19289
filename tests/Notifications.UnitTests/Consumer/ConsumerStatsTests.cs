using Microsoft.Extensions.Options;
using Notifications.Consumer;
using Notifications.Consumer.Telemetry;

namespace Notifications.UnitTests.Consumer;

public sealed class ConsumerStatsTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public void AddDelivered_WithinWarmup_CountedButLeftOutOfLatency()
    {
        var stats = new ConsumerStats(options: Options.Create(new ConsumerOptions { LatencyWarmup = TimeSpan.FromSeconds(5) }));

        stats.AddDelivered(TimeSpan.FromSeconds(2), Start);
        stats.AddDelivered(TimeSpan.FromSeconds(1), Start.AddSeconds(4));
        stats.AddDelivered(TimeSpan.FromMilliseconds(10), Start.AddSeconds(6));

        Assert.Equal(3, stats.Delivered);
        Assert.Equal(1, stats.Latency.Count);
        Assert.Equal(10, stats.Latency.Max.TotalMilliseconds);
        Assert.Equal(Start, stats.FirstDeliveredAt);
    }

    [Fact]
    public void AddDelivered_NoWarmup_EveryLatencyRecorded()
    {
        var stats = new ConsumerStats();

        stats.AddDelivered(TimeSpan.FromSeconds(2), Start);
        stats.AddDelivered(TimeSpan.FromSeconds(1), Start.AddSeconds(1));

        Assert.Equal(2, stats.Latency.Count);
    }
}
