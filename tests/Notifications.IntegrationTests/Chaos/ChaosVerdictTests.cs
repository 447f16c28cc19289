namespace Notifications.IntegrationTests.Chaos;

/// <summary>The oracle itself, on made-up counts: it must fail a run whose duplicates or losses exceed what its fault may have cut.</summary>
public sealed class ChaosVerdictTests
{
    private static readonly long[] Committed = [1, 2, 3, 4, 5, 6];

    [Theory]
    [InlineData(0, 0, true)]
    [InlineData(1, 0, false)]
    [InlineData(2, 2, true)]
    [InlineData(3, 2, false)]
    public void Judge_AtLeastOnceDuplicates_PassOnlyWithinTheBudget(int extraCopies, int cutSends, bool passes)
    {
        var received = Committed.ToDictionary(id => id, id => id <= extraCopies ? 2 : 1);

        var verdict = Judge("AtLeastOnce", received, marked: [], cutSends);

        Assert.Equal(extraCopies, verdict.Duplicated);
        Assert.Equal(passes, verdict.Passed);
    }

    [Theory]
    [InlineData(0, 0, true)]
    [InlineData(1, 0, false)]
    [InlineData(2, 2, true)]
    [InlineData(3, 2, false)]
    public void Judge_AtMostOnceLossesWithTheirMarks_PassOnlyWithinTheBudget(int lost, int cutSends, bool passes)
    {
        var received = Committed.Where(id => id > lost).ToDictionary(id => id, _ => 1);
        var marked = Committed.Where(id => id <= lost).ToHashSet();

        var verdict = Judge("AtMostOnce", received, marked, cutSends);

        Assert.Equal((lost, 0), (verdict.Lost, verdict.Unaccounted));
        Assert.Equal(passes, verdict.Passed);
    }

    [Fact]
    public void Judge_AtMostOnceDuplicate_FailsWhateverTheBudget()
    {
        var received = Committed.ToDictionary(id => id, id => id == 1 ? 2 : 1);

        Assert.False(Judge("AtMostOnce", received, marked: [], cutSends: 100).Passed);
    }

    [Fact]
    public void Judge_AtLeastOnceLoss_FailsWhateverTheBudget()
    {
        var received = Committed.Where(id => id != 1).ToDictionary(id => id, _ => 1);

        Assert.False(Judge("AtLeastOnce", received, marked: [1], cutSends: 100).Passed);
    }

    [Fact]
    public void ToTsv_Budget_IsPrinted()
    {
        var verdict = Judge("AtLeastOnce", Committed.ToDictionary(id => id, _ => 1), marked: [], cutSends: 48);

        Assert.Contains("\t48 (consumer killed: 48 handlers)\t", verdict.ToTsv(), StringComparison.Ordinal);
        Assert.Contains("budget 48 (consumer killed: 48 handlers)", verdict.ToString(), StringComparison.Ordinal);
    }

    private static ChaosVerdict Judge(string mode, Dictionary<long, int> received, HashSet<long> marked, int cutSends) =>
        ChaosVerdict.Judge(1, "made up", mode, Committed, [], received, new HashSet<long>(), new HashSet<long>(), marked, 0, 0, TimeSpan.Zero, "")
        with { Budget = ChaosBudget.None.Plus(cutSends, $"consumer killed: {cutSends} handlers") };
}
