using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Observability.Hops;

namespace Notifications.UnitTests.Consumer;

public sealed class ConsumerStatsTests : IDisposable
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly ManualTime _time = new(Start);

    [Fact]
    public void AddDelivered_WithinWarmup_CountedButLeftOutOfLatency()
    {
        using var metrics = Metrics(TimeSpan.FromSeconds(5));
        var stats = new ConsumerStats(metrics);

        Deliver(stats, TimeSpan.FromSeconds(2));
        _time.Advance(TimeSpan.FromSeconds(4));
        Deliver(stats, TimeSpan.FromSeconds(1));
        _time.Advance(TimeSpan.FromSeconds(2));
        Deliver(stats, TimeSpan.FromMilliseconds(10));

        Assert.Equal(3, stats.Delivered);
        var latency = metrics.Hops.Snapshot("end_to_end");
        Assert.Equal(1, latency.Count);
        Assert.Equal(0.010, latency.Max, 9);
        Assert.Equal(Start, stats.FirstDeliveredAt);
    }

    [Fact]
    public void AddDelivered_NoWarmup_EveryLatencyRecorded()
    {
        using var metrics = Metrics(TimeSpan.Zero);
        var stats = new ConsumerStats(metrics);

        Deliver(stats, TimeSpan.FromSeconds(2));
        Deliver(stats, TimeSpan.FromSeconds(1));

        Assert.Equal(2, metrics.Hops.Snapshot("end_to_end").Count);
    }

    [Fact]
    public void AddDelivered_Timed_RecordsLogWriteAndAckInItsLane()
    {
        using var metrics = Metrics(TimeSpan.Zero);
        var stats = new ConsumerStats(metrics);
        long now = Stopwatch.GetTimestamp();

        stats.AddDelivered(TimeSpan.FromMilliseconds(7), Start, new DeliveryTimings(HopTags.Urgent, now - Stopwatch.Frequency, now));

        Assert.Equal(1, metrics.Hops.Snapshot("end_to_end", "urgent").Count);
        Assert.InRange(metrics.Hops.Snapshot("log_write", "urgent").Max, 0.999, 1.001);
        Assert.Equal(1, metrics.Hops.Snapshot("ack", "urgent").Count);
        Assert.Equal(0, metrics.Hops.Snapshot("end_to_end", "standard").Count);
    }

    public void Dispose() => _services.Dispose();

    [Fact]
    public void AddHeldBack_RelayOrEndpointBreaker_CountedApart()
    {
        using var metrics = Metrics(TimeSpan.Zero);
        var stats = new ConsumerStats(metrics);
        var relay = new RelayBreaker("relay", new RelayOptions(), gated: true, metrics, _time, NullLogger.Instance);
        var endpoint = new RelayBreaker("webhook:partner", new RelayOptions(), gated: false, metrics, _time, NullLogger.Instance);

        stats.AddHeldBack(endpoint);
        stats.AddHeldBack(endpoint);
        stats.AddHeldBack(relay);

        Assert.Equal((1L, 2L), (stats.RelayRejected, stats.DestinationRejected));
    }

    private ConsumerMetrics Metrics(TimeSpan warmup) => new(_services.GetRequiredService<IMeterFactory>(), _time,
        Options.Create(new ConsumerOptions { LatencyWarmup = warmup }));

    private void Deliver(ConsumerStats stats, TimeSpan latency) => stats.AddDelivered(latency, _time.GetUtcNow());
}
