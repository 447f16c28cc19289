using Notifications.Harness.FanOut;

namespace Notifications.UnitTests.Harness;

/// <summary>The fan-out run's figures from arrival times (Unix microseconds) against the insert's commit.</summary>
public sealed class FanOutArrivalsTests
{
    private const long Commit = 1_000_000_000;

    // Ten devices arriving at 1 s, 2 s, ..., 10 s after the commit.
    private static readonly long[] TenSeconds = [.. Enumerable.Range(1, 10).Select(s => Commit + (s * 1_000_000L))];

    [Theory]
    [InlineData(0.50, 5.0)]
    [InlineData(0.90, 9.0)]
    [InlineData(1.00, 10.0)]
    [InlineData(0.01, 1.0)]
    public void SecondsTo_AllArrived_TheArrivalThatMadeTheShare(double fraction, double seconds)
    {
        Assert.Equal(seconds, FanOutArrivals.SecondsTo(Commit, TenSeconds, expected: 10, fraction)!.Value, precision: 6);
    }

    [Fact]
    public void SecondsTo_ShareOfExpectedNotOfReceived_NullWhenTooFewArrived()
    {
        // Ten of twenty arrived: 50 % is the tenth arrival; 90 % and 100 % were never reached.
        Assert.Equal(10.0, FanOutArrivals.SecondsTo(Commit, TenSeconds, expected: 20, 0.50));
        Assert.Null(FanOutArrivals.SecondsTo(Commit, TenSeconds, expected: 20, 0.90));
        Assert.Null(FanOutArrivals.SecondsTo(Commit, TenSeconds, expected: 20, 1.00));
    }

    [Fact]
    public void SecondsTo_ShareNotWhole_RoundsUpToTheNextDevice()
    {
        // 90 % of 3 devices is 2.7: the third arrival.
        long[] three = [Commit + 100_000, Commit + 200_000, Commit + 3_000_000];

        Assert.Equal(3.0, FanOutArrivals.SecondsTo(Commit, three, expected: 3, 0.90));
    }

    [Fact]
    public void PerMinute_TenDevicesInTenSeconds_Sixty()
    {
        Assert.Equal(60.0, FanOutArrivals.PerMinute(Commit, TenSeconds), precision: 6);
        Assert.Equal(0, FanOutArrivals.PerMinute(Commit, []));
    }

    [Fact]
    public void LastDevice_EachRowsSlowestDevice_AscendingAndIncompleteCounted()
    {
        var committed = new Dictionary<string, long> { ["1"] = Commit, ["2"] = Commit + 1000, ["3"] = Commit + 2000 };
        var arrivals = new Dictionary<string, long[]>
        {
            ["1"] = [Commit + 4000, Commit + 9000, Commit + 5000],
            ["2"] = [Commit + 3000, Commit + 4000, Commit + 6000],
            ["3"] = [Commit + 3000, Commit + 4000], // a device missing
        };

        var (lastDevice, incomplete) = FanOutArrivals.LastDevice(committed, arrivals, devices: 3);

        Assert.Equal([5.0, 9.0], lastDevice);
        Assert.Equal(1, incomplete);
    }

    [Fact]
    public void LastDevice_NothingArrived_AllIncomplete()
    {
        var (lastDevice, incomplete) = FanOutArrivals.LastDevice(new Dictionary<string, long> { ["1"] = Commit }, new Dictionary<string, long[]>(), devices: 3);

        Assert.Empty(lastDevice);
        Assert.Equal(1, incomplete);
    }

    [Fact]
    public void RowsCsv_InCommitOrder_FirstAndLastDeviceOrEmptyWhenNoneArrived()
    {
        var committed = new Dictionary<string, long> { ["b"] = Commit + 2000, ["a"] = Commit };
        var arrivals = new Dictionary<string, long[]> { ["a"] = [Commit + 4500, Commit + 3000, Commit + 9250] };

        Assert.Equal(
            ["id,committed_unix_us,first_device_ms,last_device_ms", $"a,{Commit},3.00,9.25", $"b,{Commit + 2000},,"],
            FanOutArrivals.RowsCsv(committed, arrivals));
    }
}
