using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Shared.Observability.Hops;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Observability.Hops;

public sealed class HopRecorderTests : IDisposable
{
    private const string MeterName = "Notifications.Test.Hops";
    private static readonly DateTimeOffset Start = new(2026, 11, 25, 12, 0, 2, TimeSpan.Zero);
    private static readonly HopDefinition[] Definitions =
    [
        new("test.queue.wait", "queue_wait", LatencyBuckets.Hop),
        new("test.latency", "end_to_end", LatencyBuckets.EndToEnd, Windowed: true),
    ];

    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly ManualTime _time = new(Start);
    private readonly Histogram<double> _wait;
    private readonly Histogram<double> _latency;
    private readonly IMeterFactory _meters;

    public HopRecorderTests()
    {
        _meters = _services.GetRequiredService<IMeterFactory>();
        var meter = _meters.Create(MeterName);
        _wait = meter.CreateHistogram<double>("test.queue.wait");
        _latency = meter.CreateHistogram<double>("test.latency");
    }

    [Fact]
    public void Hops_LaneTags_ReportedPerLaneAndAllTogether()
    {
        using var recorder = new HopRecorder(_meters, MeterName, Definitions, TimeSpan.Zero, _time);

        _wait.Record(0.002, HopTags.Urgent);
        _wait.Record(0.004, HopTags.Standard);
        _wait.Record(0.009, HopTags.Standard);

        var hops = recorder.Hops().Where(h => h.Hop == "queue_wait").ToDictionary(h => h.Lane);
        Assert.Equal(["all", "urgent", "standard"], hops.Keys);
        Assert.Equal(3, hops["all"].Count);
        Assert.Equal(9, hops["all"].MaxMs, 6);
        Assert.Equal(1, hops["urgent"].Count);
        Assert.Equal(2, hops["urgent"].MaxMs, 6);
        Assert.Equal(2, hops["standard"].Count);
        Assert.InRange(hops["standard"].P50Ms, 3, 4);
    }

    [Fact]
    public void Hops_Untagged_OnlyInAll()
    {
        using var recorder = new HopRecorder(_meters, MeterName, Definitions, TimeSpan.Zero, _time);

        _latency.Record(0.020);

        var entry = Assert.Single(recorder.Hops());
        Assert.Equal(("end_to_end", "all", 1L), (entry.Hop, entry.Lane, entry.Count));
        Assert.Equal(entry.Counts.Length, entry.BoundsMs.Length + 1);
        Assert.Equal(0.25, entry.BoundsMs[0]);
    }

    [Fact]
    public void Windows_FiveSecondSlots_AlignedOnTheEpochEachWithItsOwnTail()
    {
        using var recorder = new HopRecorder(_meters, MeterName, Definitions, TimeSpan.Zero, _time);

        _latency.Record(0.003);
        _time.Advance(TimeSpan.FromSeconds(2));
        _latency.Record(0.004);
        _time.Advance(TimeSpan.FromSeconds(4));
        _latency.Record(0.400);
        _time.Advance(TimeSpan.FromSeconds(10));
        _latency.Record(0.005);

        var windows = recorder.Windows();
        Assert.Equal([Start.AddSeconds(-2), Start.AddSeconds(3), Start.AddSeconds(13)], windows.Select(w => w.Start));
        Assert.Equal([2L, 1, 1], windows.Select(w => w.Count));
        Assert.Equal(400, windows[1].MaxMs, 6);
        Assert.Equal(4, windows[0].MaxMs, 6);
    }

    [Fact]
    public void Record_WithinWarmup_LeftOut()
    {
        using var recorder = new HopRecorder(_meters, MeterName, Definitions, TimeSpan.FromSeconds(5), _time);

        _latency.Record(2);
        _time.Advance(TimeSpan.FromSeconds(4));
        _wait.Record(1);
        _time.Advance(TimeSpan.FromSeconds(2));
        _latency.Record(0.010);

        Assert.Equal(1, recorder.Snapshot("end_to_end").Count);
        Assert.Equal(0.010, recorder.Snapshot("end_to_end").Max, 9);
        Assert.Equal(0, recorder.Snapshot("queue_wait").Count);
    }

    [Fact]
    public void Record_AnotherHostsMeterOfTheSameName_NotCounted()
    {
        using var other = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var otherLatency = other.GetRequiredService<IMeterFactory>().Create(MeterName).CreateHistogram<double>("test.latency");
        using var recorder = new HopRecorder(_meters, MeterName, Definitions, TimeSpan.Zero, _time);

        otherLatency.Record(1);
        _latency.Record(0.001);

        Assert.Equal(1, recorder.Snapshot("end_to_end").Count);
    }

    [Fact]
    public void Snapshot_OneLane_OnlyThatLane()
    {
        using var recorder = new HopRecorder(_meters, MeterName, Definitions, TimeSpan.Zero, _time);

        _latency.Record(0.001, HopTags.Urgent);
        _latency.Record(0.100, HopTags.Standard);

        Assert.Equal(0.001, recorder.Snapshot("end_to_end", "urgent").Max, 9);
        Assert.Equal(2, recorder.Snapshot("end_to_end").Count);
    }

    public void Dispose() => _services.Dispose();
}
