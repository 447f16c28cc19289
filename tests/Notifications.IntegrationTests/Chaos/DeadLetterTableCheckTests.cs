using System.Text;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>The dead_letter check on made-up letters: keys one to one with rows; a key published twice counted apart, within the budget.</summary>
public sealed class DeadLetterTableCheckTests
{
    private static readonly Guid A = Guid.NewGuid();
    private static readonly Guid B = Guid.NewGuid();

    [Theory]
    [InlineData(0, 0, true)]
    [InlineData(1, 1, true)]
    [InlineData(2, 1, false)]
    public void Compare_KeyPublishedTwice_CountedApartAndPassOnlyWithinTheBudget(int extraCopies, int cutSends, bool passes)
    {
        var queued = new[] { Letter(A, 1), Letter(B, 2) }.Concat(Enumerable.Repeat(Letter(A, 1), extraCopies)).ToList();

        var table = DeadLetterTableCheck.Compare(queued, [(A, 1), (B, 2)]);
        var verdict = Judge(cutSends) with { DeadLetterTable = table };

        Assert.True(table.Agrees, table.ToString());
        Assert.Equal((extraCopies, 2), (table.Duplicates, table.Keys));
        Assert.Equal(passes, verdict.Passed);
    }

    [Fact]
    public void Compare_MorePublishedTwiceThanHandlers_PassWithinTheKilledConsumersWindow()
    {
        var table = DeadLetterTableCheck.Compare([Letter(A, 1), Letter(B, 2), Letter(A, 1), Letter(B, 2)], [(A, 1), (B, 2)]);

        Assert.False((Judge(1) with { DeadLetterTable = table }).Passed);
        Assert.True((Judge(1) with { DeadLetterTable = table, KilledWindow = 1 }).Passed);
    }

    [Fact]
    public void Compare_RowWithoutMessage_Differs()
    {
        var table = DeadLetterTableCheck.Compare([Letter(A, 1), Letter(A, 1)], [(A, 1), (B, 2)]);

        Assert.False(table.Agrees, table.ToString());
        Assert.Equal((1, 1), (table.RowsWithoutMessage, table.Duplicates));
        Assert.False((Judge(48) with { DeadLetterTable = table }).Passed);
    }

    [Fact]
    public void Compare_MessageWithoutKey_Differs()
    {
        var unrecorded = ("", Encoding.UTF8.GetBytes("{\"id\":3}"), (IDictionary<string, object?>)new Dictionary<string, object?>());

        var table = DeadLetterTableCheck.Compare([Letter(A, 1), unrecorded], [(A, 1)]);

        Assert.False(table.Agrees, table.ToString());
        Assert.Equal(1, table.ByBroker);
    }

    private static (string Reason, byte[] Body, IDictionary<string, object?> Headers) Letter(Guid key, long id) =>
        ("smtp permanent failure 550", Encoding.UTF8.GetBytes($"{{\"id\":{id}}}"),
            new Dictionary<string, object?> { ["x-dead-key"] = Encoding.UTF8.GetBytes(key.ToString()) });

    private static ChaosVerdict Judge(int cutSends) =>
        ChaosVerdict.Judge(26, "made up", "AtLeastOnce", [1, 2], [], new Dictionary<long, int>(), [(1, "smtp permanent failure 550"), (2, "smtp permanent failure 550")], new HashSet<long>(), new HashSet<long>(), 0, 0,
            TimeSpan.Zero, "", causes: ChaosScenarios.CausesOf(26)) with { Budget = ChaosBudget.None.Plus(cutSends, 2, $"consumer killed: {cutSends} handlers") };
}
