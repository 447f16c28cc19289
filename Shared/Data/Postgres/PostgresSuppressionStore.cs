using System.Data.Common;
using System.Runtime.CompilerServices;
using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The suppression list on PostgreSQL.</summary>
internal sealed class PostgresSuppressionStore : ISuppressionStore
{
    private const string Columns = "address AS Address, reason AS Reason, scope AS Scope, since AS Since, detail AS Detail, changed_at AS ChangedAt, removed_at AS RemovedAt";
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _addSql;
    private readonly string _removeSql;
    private readonly string _listSql;
    private readonly string _searchSql;
    private readonly string _changesSql;
    private readonly string _loadSql;
    private readonly string _findSql;
    private readonly string _recordSuppressedSql;
    private readonly string _markDeadSql;

    public PostgresSuppressionStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // clock_timestamp(), not now(): the watermark orders changes by when they were made, not when their transaction began.
        _addSql = $"""
            INSERT INTO "{s}".suppression AS x (address, reason, scope, detail) VALUES (@Key, @Reason, @Scope, @Detail)
            ON CONFLICT (address) DO UPDATE
                SET reason = EXCLUDED.reason, scope = EXCLUDED.scope, detail = EXCLUDED.detail, since = now(),
                    changed_at = clock_timestamp(), removed_at = NULL
                WHERE x.removed_at IS NOT NULL OR (x.scope = 'bulk' AND EXCLUDED.scope = 'all')
            """;
        _removeSql = $"""
            UPDATE "{s}".suppression SET removed_at = now(), changed_at = clock_timestamp(), detail = COALESCE(@Note, detail)
            WHERE address = @Key AND removed_at IS NULL
            """;
        // The pattern's literal prefix and the "C" column (022) let the primary key's index bound the scan on both sides.
        _searchSql = $"""
            SELECT {Columns} FROM "{s}".suppression
            WHERE removed_at IS NULL AND address LIKE @Pattern ESCAPE '\' AND (@After::varchar IS NULL OR address > @After::varchar)
            ORDER BY address LIMIT @Limit
            """;
        _listSql = $"""
            SELECT {Columns} FROM "{s}".suppression
            WHERE removed_at IS NULL AND (@Reason::varchar IS NULL OR reason = @Reason::varchar)
            ORDER BY since DESC, address LIMIT @Limit
            """;
        _changesSql = $"""SELECT {Columns} FROM "{s}".suppression WHERE changed_at >= @Since""";
        _loadSql = $"""SELECT {Columns} FROM "{s}".suppression WHERE removed_at IS NULL ORDER BY changed_at DESC LIMIT @Limit""";
        // The key column compares bytes (COLLATE "C", 022): the keys come made by SuppressionKeys, and the primary key serves the lookup.
        _findSql = $"""SELECT {Columns} FROM "{s}".suppression WHERE address = ANY(@Keys) AND removed_at IS NULL""";
        // Only the push contact points of the key: an unregistered token is one device, whoever's it is.
        _markDeadSql = $"""
            UPDATE "{s}".contact_point SET dead_at = now(), dead_reason = @Detail
            WHERE channel = 'push' AND address = @Key AND dead_at IS NULL
            """;
        _recordSuppressedSql = $"""
            INSERT INTO "{s}".delivery_log (notification_id, status, created_at, attempts)
            SELECT id, 'suppressed', created_at, attempts FROM unnest(@Ids, @CreatedAts, @Attempts) AS n(id, created_at, attempts)
            ON CONFLICT (notification_id) DO NOTHING
            """;
    }

    public async Task<bool> AddAsync(string key, string reason, string scope, string? detail, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await AddAsync(connection, null, key, reason, scope, detail, cancellationToken);
    }

    public async Task<bool> AddAsync(
        DbConnection connection, DbTransaction? transaction, string key, string reason, string scope, string? detail, CancellationToken cancellationToken)
    {
        var parameters = new { Key = key, Reason = reason, Scope = scope, Detail = SuppressionRow.TruncateDetail(detail) };
        bool changed = await connection.ExecuteAsync(
            new CommandDefinition(_addSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken)) > 0;
        // A statement of its own, run only for this reason: the unsubscribe page's role may not touch the registry.
        if (reason == SuppressionReasons.Unregistered)
        {
            await connection.ExecuteAsync(new CommandDefinition(_markDeadSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
        }

        return changed;
    }

    public async Task<bool> RemoveAsync(string key, string? note, CancellationToken cancellationToken) =>
        await ExecuteAsync(_removeSql, new { Key = key, Note = SuppressionRow.TruncateDetail(note) }, cancellationToken) > 0;

    public Task<IReadOnlyList<SuppressionEntry>> SearchAsync(string prefix, string? after, int limit, CancellationToken cancellationToken) =>
        QueryAsync(_searchSql, new { Pattern = LikePatterns.StartsWith(prefix), After = after, Limit = limit }, cancellationToken);

    public Task<IReadOnlyList<SuppressionEntry>> ListAsync(string? reason, int limit, CancellationToken cancellationToken) =>
        QueryAsync(_listSql, new { Reason = reason, Limit = limit }, cancellationToken);

    public Task<IReadOnlyList<SuppressionEntry>> LoadAsync(int limit, CancellationToken cancellationToken) =>
        QueryAsync(_loadSql, new { Limit = limit }, cancellationToken);

    public async IAsyncEnumerable<SuppressionEntry> ChangesSinceAsync(DateTimeOffset since, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await foreach (var row in connection.QueryUnbufferedAsync<SuppressionRow>(_changesSql, new { Since = since.UtcDateTime }, commandTimeout: _timeoutSeconds)
            .WithCancellation(cancellationToken))
        {
            yield return row.ToEntry();
        }
    }

    public Task<IReadOnlyList<SuppressionEntry>> FindAsync(IReadOnlyCollection<string> keys, CancellationToken cancellationToken) =>
        QueryAsync(_findSql, new { Keys = keys.ToArray() }, cancellationToken);

    public async Task RecordSuppressedAsync(IReadOnlyCollection<SentNotification> notifications, CancellationToken cancellationToken)
    {
        var distinct = notifications.DistinctBy(n => n.Id).ToArray();
        await ExecuteAsync(_recordSuppressedSql, new
        {
            Ids = distinct.Select(n => n.Id).ToArray(),
            CreatedAts = distinct.Select(n => n.CreatedAt?.UtcDateTime).ToArray(),
            Attempts = distinct.Select(n => n.Attempts).ToArray(),
        }, cancellationToken);
    }

    private async Task<int> ExecuteAsync(string sql, object parameters, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    private async Task<IReadOnlyList<SuppressionEntry>> QueryAsync(string sql, object? parameters, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<SuppressionRow>(
            new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToEntry()).ToList();
    }
}
