using Dapper;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>dead_letter</c> table by reason class on PostgreSQL.</summary>
internal sealed class PostgresDeadLetterGroupStore : IDeadLetterGroupStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;

    public PostgresDeadLetterGroupStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // The page's classes by a skip scan of (reason_class, dead_lettered_at): one index probe a group, however many rows
        // each holds; then per group a count that stops at the cap and its first and last instant (the index's ends).
        // A page costs at most limit x (cap + 3) index entries, at 1,000,000 dead letters as at 10,000,000.
        GroupsSql = $"""
            WITH RECURSIVE classes (reason_class, n) AS (
                (SELECT reason_class, 1 FROM "{s}".dead_letter
                 WHERE @After::varchar IS NULL OR reason_class > @After::varchar ORDER BY reason_class LIMIT 1)
                UNION ALL
                SELECT (SELECT d.reason_class FROM "{s}".dead_letter AS d WHERE d.reason_class > c.reason_class ORDER BY d.reason_class LIMIT 1), c.n + 1
                FROM classes AS c WHERE c.reason_class IS NOT NULL AND c.n < @Limit)
            SELECT c.reason_class AS ReasonClass,
                   (SELECT count(*) FROM (SELECT 1 FROM "{s}".dead_letter AS d WHERE d.reason_class = c.reason_class LIMIT @Cap + 1) AS x) AS Count,
                   (SELECT min(d.dead_lettered_at) FROM "{s}".dead_letter AS d WHERE d.reason_class = c.reason_class) AS FirstAt,
                   (SELECT max(d.dead_lettered_at) FROM "{s}".dead_letter AS d WHERE d.reason_class = c.reason_class) AS LastAt
            FROM classes AS c WHERE c.reason_class IS NOT NULL
            ORDER BY c.reason_class
            """;
        // The group's index (reason_class, dead_lettered_at) read backwards from the cursor: a page costs its rows, however big the group.
        LettersSql = $"""
            SELECT id AS Id, notification_id AS NotificationId, reason AS Reason, attempts AS Attempts,
                   dead_lettered_at AS DeadLetteredAt, letter_key IS NOT NULL AS HasKey
            FROM "{s}".dead_letter
            WHERE reason_class = @Group
              AND (@BeforeAt::timestamptz IS NULL OR (dead_lettered_at <= @BeforeAt AND (dead_lettered_at < @BeforeAt OR id < @BeforeId)))
            ORDER BY dead_lettered_at DESC, id DESC
            LIMIT @Limit
            """;
        GroupKeysSql = $"""SELECT letter_key FROM "{s}".dead_letter WHERE reason_class = @Group AND letter_key IS NOT NULL""";
        IdKeysSql = $"""SELECT letter_key FROM "{s}".dead_letter WHERE notification_id = ANY(@Ids) AND letter_key IS NOT NULL""";
        RemoveKeysSql = $"""
            WITH gone AS (DELETE FROM "{s}".dead_letter WHERE letter_key = ANY(@Keys) RETURNING notification_id),
            files AS (DELETE FROM "{s}".attachment AS a USING gone WHERE @Files AND a.notification_id = gone.notification_id)
            SELECT count(*)::int FROM gone
            """;
    }

    internal string GroupsSql { get; }

    internal string LettersSql { get; }

    internal string GroupKeysSql { get; }

    internal string IdKeysSql { get; }

    internal string RemoveKeysSql { get; }

    public async Task<IReadOnlyList<DeadLetterGroup>> ListGroupsAsync(string? after, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<(string ReasonClass, long Count, DateTime FirstAt, DateTime LastAt)>(Command(GroupsSql, new { After = after, Limit = limit, Cap = IDeadLetterGroupStore.CountCap }, cancellationToken));
        return rows.Select(r => new DeadLetterGroup(r.ReasonClass, r.Count, AdminJobRow.Utc(r.FirstAt), AdminJobRow.Utc(r.LastAt))).ToList();
    }

    public async Task<IReadOnlyList<DeadLetterEntry>> ListLettersAsync(
        string reasonClass, DateTimeOffset? beforeAt, long beforeId, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<(long Id, long? NotificationId, string Reason, int Attempts, DateTime DeadLetteredAt, bool HasKey)>(
            Command(LettersSql, new { Group = reasonClass, BeforeAt = beforeAt, BeforeId = beforeId, Limit = limit }, cancellationToken));
        return rows.Select(r => new DeadLetterEntry(r.Id, r.NotificationId, r.Reason, r.Attempts, AdminJobRow.Utc(r.DeadLetteredAt), r.HasKey)).ToList();
    }

    public async Task<IReadOnlyList<Guid>> ListKeysAsync(DeadLetterSelection selection, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var command = selection.ReasonClass is { } group
            ? Command(GroupKeysSql, new { Group = group }, cancellationToken)
            : Command(IdKeysSql, new { Ids = selection.NotificationIds!.ToArray() }, cancellationToken);
        return (await connection.QueryAsync<Guid>(command)).AsList();
    }

    public async Task<int> RemoveKeysAsync(IReadOnlyCollection<Guid> keys, bool withFiles, CancellationToken cancellationToken)
    {
        if (keys.Count == 0)
        {
            return 0;
        }

        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<int>(Command(RemoveKeysSql, new { Keys = keys.ToArray(), Files = withFiles }, cancellationToken));
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
