using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Observability;

/// <summary>The delivery SLO: share within 1 s and 2 min of insert, over a sliding window.</summary>
public sealed class SloWindowTests
{
    private static readonly DateTimeOffset Start = new(2025, 1, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public void Snapshot_MixedLatencies_CountsEachThresholdInclusively()
    {
        var window = new SloWindow(TimeSpan.FromMinutes(5));
        window.Record(TimeSpan.FromMilliseconds(200), Start);
        window.Record(TimeSpan.FromSeconds(1), Start);          // exactly 1 s: within both
        window.Record(TimeSpan.FromSeconds(30), Start);
        window.Record(TimeSpan.FromMinutes(2), Start);          // exactly 2 min: within the SLO
        window.Record(TimeSpan.FromMinutes(2.5), Start);

        var slo = window.Snapshot(Start);

        Assert.Equal(5, slo.Delivered);
        Assert.Equal(2, slo.WithinFast);
        Assert.Equal(4, slo.WithinSlo);
        Assert.Equal(0.8, slo.SloRatio, 6);
        Assert.Equal(0.4, slo.FastRatio, 6);
    }

    [Fact]
    public void Snapshot_DeliveriesOlderThanTheWindow_AreLeftOut()
    {
        var window = new SloWindow(TimeSpan.FromMinutes(5));
        window.Record(TimeSpan.FromMinutes(10), Start);                       // slow, long ago
        window.Record(TimeSpan.FromMilliseconds(10), Start.AddMinutes(4));    // fast, recent

        var early = window.Snapshot(Start.AddMinutes(4));
        var later = window.Snapshot(Start.AddMinutes(5));

        Assert.Equal(2, early.Delivered);
        Assert.Equal(0.5, early.SloRatio, 6);
        Assert.Equal(1, later.Delivered);
        Assert.Equal(1.0, later.SloRatio, 6);
    }

    [Fact]
    public void Record_SlotReusedAfterAFullTurn_StartsFromZero()
    {
        var window = new SloWindow(TimeSpan.FromMinutes(1));
        window.Record(TimeSpan.FromMinutes(5), Start);
        window.Record(TimeSpan.FromSeconds(0.5), Start.AddMinutes(1));      // same slot, one turn later

        var slo = window.Snapshot(Start.AddMinutes(1));

        Assert.Equal(1, slo.Delivered);
        Assert.Equal(1, slo.WithinFast);
    }

    [Fact]
    public void Snapshot_NothingDelivered_RatiosAreNaN()
    {
        var slo = new SloWindow(TimeSpan.FromMinutes(5)).Snapshot(Start);

        Assert.Equal(0, slo.Delivered);
        Assert.True(double.IsNaN(slo.SloRatio));
        Assert.True(double.IsNaN(slo.FastRatio));
    }

    [Fact]
    public void Snapshot_LastMinute_CountsOnlyTheLastSixtySeconds()
    {
        var window = new SloWindow(TimeSpan.FromMinutes(5));
        window.Record(TimeSpan.Zero, Start);
        window.Record(TimeSpan.Zero, Start.AddSeconds(100));
        window.Record(TimeSpan.Zero, Start.AddSeconds(110));

        var slo = window.Snapshot(Start.AddSeconds(120));

        Assert.Equal(3, slo.Delivered);
        Assert.Equal(2, slo.LastMinute);
        Assert.Equal(3 / 300.0, slo.RatePerSecond, 6);
    }

    [Fact]
    public void DeliveryWindow_Ratios_AreSharesOfDelivered()
    {
        var window = new DeliveryWindow(TimeSpan.FromMinutes(5), Delivered: 200, WithinFast: 50, WithinSlo: 199, LastMinute: 40);

        Assert.Equal(0.995, window.SloRatio, 6);
        Assert.Equal(0.25, window.FastRatio, 6);
        Assert.Equal(200 / 300.0, window.RatePerSecond, 6);
    }
}
