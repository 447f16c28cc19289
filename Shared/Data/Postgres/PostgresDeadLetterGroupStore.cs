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
        // An index-only scan of (reason_class, dead_lettered_at) that stops after the page's last group: the cost is the
        // rows of the page's groups, never the table's. The keyset compares in the column's collation, the index's order.
        GroupsSql = $"""
            SELECT reason_class AS ReasonClass, count(*) AS Count, min(dead_lettered_at) AS FirstAt, max(dead_lettered_at) AS LastAt
            FROM "{s}".dead_letter
            WHERE @After::varchar IS NULL OR reason_class > @After::varchar
            GROUP BY reason_class
            ORDER BY reason_class
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

    internal string GroupKeysSql { get; }

    internal string IdKeysSql { get; }

    internal string RemoveKeysSql { get; }

    public async Task<IReadOnlyList<DeadLetterGroup>> ListGroupsAsync(string? after, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<(string ReasonClass, long Count, DateTime FirstAt, DateTime LastAt)>(Command(GroupsSql, new { After = after, Limit = limit }, cancellationToken));
        return rows.Select(r => new DeadLetterGroup(r.ReasonClass, r.Count, AdminJobRow.Utc(r.FirstAt), AdminJobRow.Utc(r.LastAt))).ToList();
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
