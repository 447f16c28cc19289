using Notifications.Shared.Data;

namespace Notifications.UnitTests.Data;

/// <summary>
/// The claim's order across priorities and statements (<see cref="ClaimOrder"/>), and a statement that returns more rows than
/// it was asked for: PostgreSQL may run a <c>DELETE … WHERE id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)</c> sub-select
/// more than once and delete (and return) more than n. Those rows are deleted: they are kept, and no further statement is
/// asked for a negative number of rows (a 100,000-client live benchmark stalled its producer on "LIMIT must not be negative").
/// </summary>
public sealed class ClaimOrderTests
{
    private static readonly NotificationPriority[] Priorities = [NotificationPriority.Urgent, NotificationPriority.Normal];

    [Fact]
    public async Task ClaimAsync_FillsTheBatchPriorityByPriority_DueBeforeNow()
    {
        var asked = new List<(string Sql, NotificationPriority Priority, int Limit)>();

        var rows = await ClaimOrder.ClaimAsync(Priorities, 5, "due", "now", (sql, priority, limit) =>
        {
            asked.Add((sql, priority, limit));
            return Task.FromResult(Rows(sql == "now" ? Math.Min(limit, 2) : 1));
        });

        Assert.Equal(5, rows.Count);
        Assert.Equal(
            [("due", NotificationPriority.Urgent, 5), ("now", NotificationPriority.Urgent, 4), ("due", NotificationPriority.Normal, 2), ("now", NotificationPriority.Normal, 1)],
            asked);
    }

    [Fact]
    public async Task ClaimAsync_AStatementReturnsMoreThanAsked_KeepsThemAll_AsksNoFurtherStatement()
    {
        var limits = new List<int>();

        var rows = await ClaimOrder.ClaimAsync(Priorities, 3, "due", "now", (_, _, limit) =>
        {
            limits.Add(limit);
            return Task.FromResult(Rows(limit + 1));
        });

        Assert.Equal(4, rows.Count);
        Assert.Equal([3], limits);
    }

    [Fact]
    public void Sort_OneStatementsRowsInAnyOrder_ByPriorityThenDueBeforeNowThenOldest()
    {
        var now = DateTimeOffset.UtcNow;
        OutboxRow Row(long id, string priority, int? dueMinutesAgo = null) =>
            new() { Id = id, Priority = priority, NotBefore = dueMinutesAgo is { } m ? now.AddMinutes(-m) : null };
        var returned = new[]
        {
            Row(9, "normal"), Row(3, "normal", 1), Row(2, "urgent"), Row(7, "urgent", 1), Row(8, "urgent", 5), Row(1, "normal"),
        };

        var sorted = ClaimOrder.Sort(returned, Priorities);

        Assert.Equal([8L, 7, 2, 3, 1, 9], sorted.Select(r => r.Id));
    }

    private static IEnumerable<OutboxRow> Rows(int count) =>
        Enumerable.Range(0, count).Select(i => new OutboxRow { Id = Random.Shared.NextInt64(1, long.MaxValue) }).ToList();
}
