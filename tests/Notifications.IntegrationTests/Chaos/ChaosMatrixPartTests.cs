namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The parts scripts/test runs the fault matrix in (NOTIFICATIONS_CHAOS_PART): together they are the whole matrix, each row once;
/// the broker-wide rows only in the part that runs alone.
/// </summary>
public sealed class ChaosMatrixPartTests
{
    private static readonly List<(int Scenario, string Mode, int Rows)> Rows =
        [(2, "AtMostOnce", 10), (5, "AtLeastOnce", 10), (3, "AtLeastOnce", 10), (6, "AtMostOnce", 10), (7, "AtMostOnce", 10), (8, "AtLeastOnce", 10)];

    [Fact]
    public void Part_BrokerAndThreeOthers_EachRowOnceAndTheBrokerWideAlone()
    {
        var broker = ChaosMatrixTests.Part(Rows, "broker").ToList();
        var one = ChaosMatrixTests.Part(Rows, "other-1/3").ToList();
        var two = ChaosMatrixTests.Part(Rows, "other-2/3").ToList();
        var three = ChaosMatrixTests.Part(Rows, "other-3/3").ToList();

        Assert.Equal([5, 6], broker.Select(r => r.Scenario));
        Assert.Equal([2, 8], one.Select(r => r.Scenario));
        Assert.Equal([3], two.Select(r => r.Scenario));
        Assert.Equal([7], three.Select(r => r.Scenario));
        Assert.Equal(Rows.OrderBy(r => r.Scenario), broker.Concat(one).Concat(two).Concat(three).OrderBy(r => r.Scenario));
        Assert.Equal(Rows, ChaosMatrixTests.Part(Rows, null));
        Assert.Equal(one.Concat(two).Concat(three).OrderBy(r => r.Scenario), ChaosMatrixTests.Part(Rows, "other").OrderBy(r => r.Scenario));
    }

    [Fact]
    public void Part_TwoShares_EveryOtherRow()
    {
        Assert.Equal([2, 7], ChaosMatrixTests.Part(Rows, "other-1/2").Select(r => r.Scenario));
        Assert.Equal([3, 8], ChaosMatrixTests.Part(Rows, "other-2/2").Select(r => r.Scenario));
    }

    [Theory]
    [InlineData("brokers")]
    [InlineData("other-1")]
    [InlineData("other-0/3")]
    [InlineData("other-4/3")]
    [InlineData("other-1/x")]
    public void Part_UnknownName_RefusedNamingTheVariable(string part)
    {
        var refused = Assert.Throws<ArgumentException>(() => ChaosMatrixTests.Part(Rows, part).ToList());
        Assert.Contains($"NOTIFICATIONS_CHAOS_PART={part}: use broker, other, other-K/N", refused.Message, StringComparison.Ordinal);
    }
}
