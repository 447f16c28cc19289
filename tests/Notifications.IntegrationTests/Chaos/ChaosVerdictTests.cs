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

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public void Judge_DeadLetteredForAReasonTheScenarioDidNotCause_CountsAsLost(string mode)
    {
        var received = Committed.Where(id => id != 1).ToDictionary(id => id, _ => 1);

        var verdict = Judge(mode, received, marked: [], cutSends: 0, [(1, "gave up after 5 attempts: smtp transient failure 451: try again")], ChaosCauses.None);

        Assert.Equal((1, 0, 1), (verdict.Lost, verdict.DeadLettered, verdict.Unaccounted));
        Assert.False(verdict.Passed);
    }

    [Theory]
    [InlineData(13, "smtp permanent failure 550: no such user", true)]
    [InlineData(13, "gave up after 5 attempts: smtp transient failure 451: try again", false)]
    [InlineData(31, "delivery_limit: dead-lettered by the broker from queue 'q'", true)]
    [InlineData(27, "delivery_limit: dead-lettered by the broker from queue 'q'", false)]
    [InlineData(19, "processing failed: the database did not answer", false)]
    public void Judge_DeadLetter_AccountedOnlyForAReasonItsScenarioCauses(int scenario, string reason, bool accounted)
    {
        var received = Committed.Where(id => id != 1).ToDictionary(id => id, _ => 1);

        var verdict = Judge("AtLeastOnce", received, marked: [], cutSends: 0, [(1, reason)], ChaosScenarios.CausesOf(scenario));

        Assert.Equal(accounted ? (0, 1) : (1, 0), (verdict.Lost, verdict.DeadLettered));
        Assert.Equal(accounted, verdict.Passed);
    }

    [Fact]
    public void Judge_SuppressedWhereTheScenarioSuppressesNothing_CountsAsLost()
    {
        var received = Committed.Where(id => id != 1).ToDictionary(id => id, _ => 1);

        var unasked = Judge("AtLeastOnce", received, marked: [], cutSends: 0, [], ChaosCauses.None, suppressed: [1]);
        var caused = Judge("AtLeastOnce", received, marked: [], cutSends: 0, [], ChaosScenarios.CausesOf(26), suppressed: [1]);

        Assert.Equal((1, false), (unasked.Lost, unasked.Passed));
        Assert.Equal((0, true), (caused.Lost, caused.Passed));
    }

    [Fact]
    public void Judge_BudgetAboveTheRows_Refused()
    {
        // Short scenario 12 allowed 5,096 of 3,000 rows: a budget no run can exceed excuses anything.
        var verdict = Judge("AtLeastOnce", Committed.ToDictionary(id => id, _ => 1), marked: [], cutSends: 0)
            with { Budget = new ChaosBudget(Committed.Length + 1, "a window of channels x prefetch x envelope") };

        Assert.Equal(0, verdict.Duplicated);
        Assert.False(verdict.Passed);
        Assert.Contains("budget refused", verdict.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(48, 3000, 48)]
    [InlineData(48, 20, 20)]
    [InlineData(48, 0, 0)]
    public void Plus_MoreSendsThanInFlight_ClampedToWhatWasInFlight(int sends, int inFlight, int budget)
    {
        var plus = ChaosBudget.None.Plus(sends, inFlight, "consumer killed: 48 handlers");

        Assert.Equal(budget, plus.Sends);
        Assert.Equal(budget, plus.Plus(0, 0, "relay restarted: 32 handlers").Sends);
    }

    [Fact]
    public void Plus_SecondCut_AddsItsOwnClampedPart()
    {
        var budget = ChaosBudget.None.Plus(32, 3000, "relay restarted: 32 handlers").Plus(1344, 900, "relay dropping after DATA for 2 s: 1344 reached the SMTP sink meanwhile");

        Assert.Equal(932, budget.Sends);
        Assert.Equal("932 (relay restarted: 32 handlers + relay dropping after DATA for 2 s: 1344 reached the SMTP sink meanwhile, 900 in flight)", budget.ToString());
    }

    [Fact]
    public void ToTsv_Budget_IsPrinted()
    {
        var verdict = Judge("AtLeastOnce", Committed.ToDictionary(id => id, _ => 1), marked: [], cutSends: 48);

        Assert.Contains("\t6 (consumer killed: 48 handlers, 6 in flight)\t", verdict.ToTsv(), StringComparison.Ordinal);
        Assert.Contains("budget 6 (consumer killed: 48 handlers, 6 in flight)", verdict.ToString(), StringComparison.Ordinal);
    }

    private static ChaosVerdict Judge(
        string mode, Dictionary<long, int> received, HashSet<long> marked, int cutSends, (long, string)[]? deadLetters = null,
        ChaosCauses? causes = null, HashSet<long>? suppressed = null) =>
        ChaosVerdict.Judge(1, "made up", mode, Committed, [], received, deadLetters ?? [], new HashSet<long>(), marked, 0, 0, TimeSpan.Zero, "",
            suppressed: suppressed, causes: causes ?? ChaosCauses.None)
        with { Budget = ChaosBudget.None.Plus(cutSends, Committed.Length, $"consumer killed: {cutSends} handlers") };
}
