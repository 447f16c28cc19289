using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>dead_letter</c> table by reason class on SQL Server; a list of ids or keys travels as a JSON array.</summary>
internal sealed class SqlServerDeadLetterGroupStore : IDeadLetterGroupStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerDeadLetterGroupStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // The page's classes from an ordered scan of IX_dead_letter_reason_class that stops after the page's last group; per
        // group a count that stops at the cap and its first and last instant (the index's ends).
        GroupsSql = $"""
            SELECT TOP (@Limit) c.reason_class AS ReasonClass,
                   (SELECT COUNT_BIG(*) FROM (SELECT TOP (@Cap + 1) d.id FROM [{s}].[dead_letter] AS d WHERE d.reason_class = c.reason_class) AS x) AS Count,
                   (SELECT CAST(SWITCHOFFSET(MIN(d.dead_lettered_at), '+00:00') AS datetime2(3)) FROM [{s}].[dead_letter] AS d WHERE d.reason_class = c.reason_class) AS FirstAt,
                   (SELECT CAST(SWITCHOFFSET(MAX(d.dead_lettered_at), '+00:00') AS datetime2(3)) FROM [{s}].[dead_letter] AS d WHERE d.reason_class = c.reason_class) AS LastAt
            FROM (SELECT DISTINCT reason_class FROM [{s}].[dead_letter] WHERE @After IS NULL OR reason_class > @After) AS c
            ORDER BY c.reason_class;
            """;
        // IX_dead_letter_reason_class read backwards from the cursor: a page costs its rows, however big the group.
        LettersSql = $"""
            SELECT TOP (@Limit) id AS Id, notification_id AS NotificationId, reason AS Reason, attempts AS Attempts,
                   CAST(SWITCHOFFSET(dead_lettered_at, '+00:00') AS datetime2(7)) AS DeadLetteredAt,
                   CAST(CASE WHEN letter_key IS NULL THEN 0 ELSE 1 END AS bit) AS HasKey
            FROM [{s}].[dead_letter]
            WHERE reason_class = @Group
              AND (@BeforeAt IS NULL OR (dead_lettered_at <= @BeforeAt AND (dead_lettered_at < @BeforeAt OR id < @BeforeId)))
            ORDER BY dead_lettered_at DESC, id DESC;
            """;
        GroupKeysSql = $"""SELECT letter_key FROM [{s}].[dead_letter] WHERE reason_class = @Group AND letter_key IS NOT NULL;""";
        IdKeysSql = $"""
            SELECT d.letter_key FROM [{s}].[dead_letter] AS d
            WHERE d.notification_id IN (SELECT i.id FROM OPENJSON(@Ids) WITH (id bigint '$') AS i) AND d.letter_key IS NOT NULL;
            """;
        RemoveKeysSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            DECLARE @gone TABLE (notification_id bigint NULL);
            BEGIN TRANSACTION;
            DELETE FROM [{s}].[dead_letter]
            OUTPUT DELETED.notification_id INTO @gone
            WHERE letter_key IN (SELECT k.letter_key FROM OPENJSON(@Keys) WITH (letter_key uniqueidentifier '$') AS k);
            IF @Files = 1
                DELETE a FROM [{s}].[attachment] AS a WHERE a.notification_id IN (SELECT notification_id FROM @gone);
            COMMIT TRANSACTION;
            SELECT COUNT(*) FROM @gone;
            """;
    }

    internal string GroupsSql { get; }

    internal string LettersSql { get; }

    internal string GroupKeysSql { get; }

    internal string IdKeysSql { get; }

    internal string RemoveKeysSql { get; }

    public async Task<IReadOnlyList<DeadLetterGroup>> ListGroupsAsync(string? after, int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<(string ReasonClass, long Count, DateTime FirstAt, DateTime LastAt)>(Command(GroupsSql, new { After = after, Limit = limit, Cap = IDeadLetterGroupStore.CountCap }, cancellationToken));
        return rows.Select(r => new DeadLetterGroup(r.ReasonClass, r.Count, AdminJobRow.Utc(r.FirstAt), AdminJobRow.Utc(r.LastAt))).ToList();
    }

    public async Task<IReadOnlyList<DeadLetterEntry>> ListLettersAsync(
        string reasonClass, DateTimeOffset? beforeAt, long beforeId, int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<(long Id, long? NotificationId, string Reason, int Attempts, DateTime DeadLetteredAt, bool HasKey)>(
            Command(LettersSql, new { Group = reasonClass, BeforeAt = beforeAt, BeforeId = beforeId, Limit = limit }, cancellationToken));
        return rows.Select(r => new DeadLetterEntry(r.Id, r.NotificationId, r.Reason, r.Attempts, AdminJobRow.Utc(r.DeadLetteredAt), r.HasKey)).ToList();
    }

    public async Task<IReadOnlyList<Guid>> ListKeysAsync(DeadLetterSelection selection, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var command = selection.ReasonClass is { } group
            ? Command(GroupKeysSql, new { Group = group }, cancellationToken)
            : Command(IdKeysSql, new { Ids = System.Text.Json.JsonSerializer.Serialize(selection.NotificationIds) }, cancellationToken);
        return (await connection.QueryAsync<Guid>(command)).AsList();
    }

    public async Task<int> RemoveKeysAsync(IReadOnlyCollection<Guid> keys, bool withFiles, CancellationToken cancellationToken)
    {
        if (keys.Count == 0)
        {
            return 0;
        }

        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<int>(Command(RemoveKeysSql, new { Keys = System.Text.Json.JsonSerializer.Serialize(keys), Files = withFiles }, cancellationToken));
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
