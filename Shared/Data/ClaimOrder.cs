namespace Notifications.Shared.Data;

/// <summary>The order of a claim, the same in both dialects (SQL Server's statements one by one, PostgreSQL's in one): see <see cref="IOutboxStore.ClaimAsync(IReadOnlyList{NotificationPriority}, int, CancellationToken)"/>.</summary>
internal static class ClaimOrder
{
    /// <summary>
    /// For each priority in turn, the due scheduled rows (<paramref name="dueSql"/>) and then the rows to send now
    /// (<paramref name="nowSql"/>), until <paramref name="batchSize"/> rows are claimed. <paramref name="claim"/>
    /// runs one statement for one priority and at most the given number of rows, in the claim's transaction.
    /// </summary>
    public static async Task<List<OutboxRow>> ClaimAsync(
        IReadOnlyList<NotificationPriority> priorities, int batchSize, string dueSql, string nowSql,
        Func<string, NotificationPriority, int, Task<IEnumerable<OutboxRow>>> claim)
    {
        var rows = new List<OutboxRow>();
        foreach (var priority in priorities)
        {
            foreach (string sql in (string[])[dueSql, nowSql])
            {
                // At least: a statement may return more than it was asked for (PostgreSQL's did, its sub-select run more than once,
                // when it claimed one range a statement). Those rows are deleted in this transaction: kept (a batch a little
                // larger), and no statement is asked for a negative number of rows.
                if (rows.Count >= batchSize)
                {
                    return rows;
                }

                // RETURNING / OUTPUT give rows in no guaranteed order: each statement's rows are put in claim order.
                var claimed = await claim(sql, priority, batchSize - rows.Count);
                rows.AddRange(claimed.OrderBy(r => r.NotBefore).ThenBy(r => r.Id));
            }
        }

        return rows;
    }

    /// <summary>
    /// The rows of a claim made in one statement, put in the order <see cref="ClaimAsync"/> takes them: by priority as
    /// listed, each priority's due scheduled rows (oldest <c>not_before</c> first) before its rows to send now (oldest first).
    /// </summary>
    public static List<OutboxRow> Sort(IEnumerable<OutboxRow> rows, IReadOnlyList<NotificationPriority> priorities)
    {
        var rank = priorities.Select((p, i) => (p.ToColumn(), i)).ToDictionary();
        return rows.OrderBy(r => rank.GetValueOrDefault(r.Priority, rank.Count)).ThenBy(r => r.NotBefore is null)
            .ThenBy(r => r.NotBefore).ThenBy(r => r.Id).ToList();
    }
}
