using System.Data.Common;
using System.Runtime.CompilerServices;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The suppression list on SQL Server.</summary>
internal sealed class SqlServerSuppressionStore : ISuppressionStore
{
    // Read as UTC datetime2, the type PostgreSQL's timestamptz arrives as (one row type for both dialects).
    private const string Columns = """
        address AS Address, reason AS Reason, scope AS Scope, CAST(SWITCHOFFSET(since, '+00:00') AS datetime2(3)) AS Since, detail AS Detail,
        CAST(SWITCHOFFSET(changed_at, '+00:00') AS datetime2(3)) AS ChangedAt, CAST(SWITCHOFFSET(removed_at, '+00:00') AS datetime2(3)) AS RemovedAt
        """;

    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerSuppressionStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        AddSql = $"""
            MERGE [{s}].[suppression] WITH (HOLDLOCK) AS t
            USING (SELECT @Key AS address, @Reason AS reason, @Scope AS scope, @Detail AS detail) AS src ON t.address = src.address
            WHEN MATCHED AND (t.removed_at IS NOT NULL OR (t.scope = 'bulk' AND src.scope = 'all')) THEN
                UPDATE SET reason = src.reason, scope = src.scope, detail = src.detail, since = SYSUTCDATETIME(),
                           changed_at = SYSUTCDATETIME(), removed_at = NULL
            WHEN NOT MATCHED THEN INSERT (address, reason, scope, detail) VALUES (src.address, src.reason, src.scope, src.detail);
            """;
        RemoveSql = $"""
            UPDATE [{s}].[suppression] SET removed_at = SYSUTCDATETIME(), changed_at = SYSUTCDATETIME(), detail = COALESCE(@Note, detail)
            WHERE address = @Key AND removed_at IS NULL;
            """;
        // The pattern's literal prefix lets the binary-collated key's index seek a range (022).
        SearchSql = $"""
            SELECT TOP (@Limit) {Columns} FROM [{s}].[suppression]
            WHERE removed_at IS NULL AND address LIKE @Pattern ESCAPE '\' AND (@After IS NULL OR address > @After)
            ORDER BY address;
            """;
        ListSql = $"""
            SELECT TOP (@Limit) {Columns} FROM [{s}].[suppression]
            WHERE removed_at IS NULL AND (@Reason IS NULL OR reason = @Reason)
            ORDER BY since DESC, address;
            """;
        ChangesSql = $"SELECT {Columns} FROM [{s}].[suppression] WHERE changed_at >= @Since;";
        LoadSql = $"SELECT TOP (@Limit) {Columns} FROM [{s}].[suppression] WHERE removed_at IS NULL ORDER BY changed_at DESC;";
        // The key column compares binary (Latin1_General_100_BIN2, 022). OPENJSON's columns take the database's collation, and two
        // columns of different collations cannot be compared ("cannot resolve the collation conflict"): the keys are given the column's.
        FindSql = $"""
            SELECT {Columns} FROM [{s}].[suppression]
            WHERE removed_at IS NULL
              AND address IN (SELECT j.k COLLATE Latin1_General_100_BIN2 FROM OPENJSON(@Keys) WITH (k nvarchar(640) '$') AS j);
            """;
        // Only the push contact points of the key: an unregistered token is one device, whoever's it is.
        MarkDeadSql = $"""
            UPDATE [{s}].[contact_point] SET dead_at = SYSUTCDATETIME(), dead_reason = @Detail
            WHERE channel = 'push' AND address = @Key AND dead_at IS NULL;
            """;
        RecordSuppressedSql = $"""
            INSERT INTO [{s}].[delivery_log] (notification_id, status, created_at, attempts)
            SELECT j.id, 'suppressed', MAX(j.created_at), MAX(j.attempts)
            FROM OPENJSON(@Suppressed) WITH (id bigint '$.id', created_at datetimeoffset(3) '$.createdAt', attempts int '$.attempts') AS j
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[delivery_log] AS d WITH (UPDLOCK, HOLDLOCK) WHERE d.notification_id = j.id)
            GROUP BY j.id;
            """;
    }

    internal string AddSql { get; }

    internal string RemoveSql { get; }

    internal string ListSql { get; }

    internal string SearchSql { get; }

    internal string ChangesSql { get; }

    internal string LoadSql { get; }

    internal string FindSql { get; }

    internal string RecordSuppressedSql { get; }

    internal string MarkDeadSql { get; }

    public async Task<bool> AddAsync(string key, string reason, string scope, string? detail, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        return await AddAsync(connection, null, key, reason, scope, detail, cancellationToken);
    }

    public async Task<bool> AddAsync(
        DbConnection connection, DbTransaction? transaction, string key, string reason, string scope, string? detail, CancellationToken cancellationToken)
    {
        var parameters = new { Key = key, Reason = reason, Scope = scope, Detail = SuppressionRow.TruncateDetail(detail) };
        bool changed = await connection.ExecuteAsync(
            new CommandDefinition(AddSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken)) > 0;
        // A statement of its own, run only for this reason: the unsubscribe page's role may not touch the registry.
        if (reason == SuppressionReasons.Unregistered)
        {
            await connection.ExecuteAsync(new CommandDefinition(MarkDeadSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
        }

        return changed;
    }

    public async Task<bool> RemoveAsync(string key, string? note, CancellationToken cancellationToken) =>
        await ExecuteAsync(RemoveSql, new { Key = key, Note = SuppressionRow.TruncateDetail(note) }, cancellationToken) > 0;

    public Task<IReadOnlyList<SuppressionEntry>> SearchAsync(string prefix, string? after, int limit, CancellationToken cancellationToken) =>
        QueryAsync(SearchSql, new { Pattern = LikePatterns.StartsWith(prefix), After = after, Limit = limit }, cancellationToken);

    public Task<IReadOnlyList<SuppressionEntry>> ListAsync(string? reason, int limit, CancellationToken cancellationToken) =>
        QueryAsync(ListSql, new { Reason = reason, Limit = limit }, cancellationToken);

    public Task<IReadOnlyList<SuppressionEntry>> LoadAsync(int limit, CancellationToken cancellationToken) =>
        QueryAsync(LoadSql, new { Limit = limit }, cancellationToken);

    public async IAsyncEnumerable<SuppressionEntry> ChangesSinceAsync(DateTimeOffset since, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await foreach (var row in connection.QueryUnbufferedAsync<SuppressionRow>(ChangesSql, new { Since = since.ToUniversalTime() }, commandTimeout: _timeoutSeconds)
            .WithCancellation(cancellationToken))
        {
            yield return row.ToEntry();
        }
    }

    public Task<IReadOnlyList<SuppressionEntry>> FindAsync(IReadOnlyCollection<string> keys, CancellationToken cancellationToken) =>
        QueryAsync(FindSql, new { Keys = System.Text.Json.JsonSerializer.Serialize(keys) }, cancellationToken);

    public async Task RecordSuppressedAsync(IReadOnlyCollection<SentNotification> notifications, CancellationToken cancellationToken)
    {
        string json = System.Text.Json.JsonSerializer.Serialize(notifications.Select(n => new { id = n.Id, createdAt = n.CreatedAt, attempts = n.Attempts }));
        await ExecuteAsync(RecordSuppressedSql, new { Suppressed = json }, cancellationToken);
    }

    private async Task<int> ExecuteAsync(string sql, object parameters, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    private async Task<IReadOnlyList<SuppressionEntry>> QueryAsync(string sql, object? parameters, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<SuppressionRow>(
            new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToEntry()).ToList();
    }
}
