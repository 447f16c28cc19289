using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability.Hops;

namespace Notifications.UnitTests.Consumer;

public sealed class SloProgressTests : IDisposable
{
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly ManualTime _time = new(new DateTimeOffset(2026, 11, 25, 12, 0, 0, TimeSpan.Zero));
    private readonly ConsumerMetrics _metrics;

    public SloProgressTests() => _metrics = new ConsumerMetrics(_services.GetRequiredService<IMeterFactory>(), _time);

    [Fact]
    public void Next_CountsFromTheBuckets_SharesWithin2MinutesAnd1Second()
    {
        var slo = new SloProgress(_metrics.Hops);
        Array.ForEach([0.2, 0.9, 1.0, 1.5, 119, 120, 121, 600], seconds => _metrics.Delivered(TimeSpan.FromSeconds(seconds)));

        var (withinSlo, withinFast) = slo.Next();

        Assert.Equal(6 / 8.0, withinSlo, 9);
        Assert.Equal(3 / 8.0, withinFast, 9);
    }

    [Fact]
    public void Next_OnlySinceThePreviousCall()
    {
        var slo = new SloProgress(_metrics.Hops);
        _metrics.Delivered(TimeSpan.FromMinutes(10));
        slo.Next();

        _metrics.Delivered(TimeSpan.FromMilliseconds(5));

        Assert.Equal((1.0, 1.0), slo.Next());
    }

    [Fact]
    public void Next_NothingDelivered_NaN()
    {
        var (withinSlo, withinFast) = new SloProgress(_metrics.Hops).Next();

        Assert.True(double.IsNaN(withinSlo) && double.IsNaN(withinFast));
    }

    [Fact]
    public void Received_FirstAttemptStamped_QueueWaitByTheStamp()
    {
        var headers = PublishedAtHeader.Stamp(null, _time);
        _time.Advance(TimeSpan.FromMilliseconds(12));

        _metrics.Received(headers, attempt: 1, HopTags.Urgent);
        _metrics.Received(headers, attempt: 2, HopTags.Urgent);
        _metrics.Received(null, attempt: 1, HopTags.Urgent);

        var wait = _metrics.Hops.Snapshot("queue_wait", "urgent");
        Assert.Equal(1, wait.Count);
        Assert.Equal(0.012, wait.Max, 9);
    }

    public void Dispose()
    {
        _metrics.Dispose();
        _services.Dispose();
    }
}
