using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The webhook endpoints on PostgreSQL.</summary>
internal sealed class PostgresWebhookEndpointStore : IWebhookEndpointStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _addSql;
    private readonly string _listSql;
    private readonly string _findSql;
    private readonly string _disableSql;
    private readonly string _enableSql;
    private readonly string _rotateSql;
    private readonly string _changesSql;

    public PostgresWebhookEndpointStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        const string columns = WebhookEndpointRow.PostgresColumns;
        // clock_timestamp(), not now(): the watermark orders changes by when they were made, not when their transaction began.
        _addSql = $"""
            INSERT INTO "{s}".webhook_endpoint (name, url, secret, allow_private) VALUES (@Name, @Url, @Secret, @AllowPrivate)
            ON CONFLICT (name) DO NOTHING
            """;
        _listSql = $"""SELECT {columns} FROM "{s}".webhook_endpoint ORDER BY name""";
        _findSql = $"""SELECT {columns} FROM "{s}".webhook_endpoint WHERE name = @Name""";
        _disableSql = $"""
            UPDATE "{s}".webhook_endpoint SET disabled_at = now(), disabled_reason = @Reason, changed_at = clock_timestamp()
            WHERE name = @Name AND disabled_at IS NULL
            """;
        _enableSql = $"""
            UPDATE "{s}".webhook_endpoint SET disabled_at = NULL, disabled_reason = NULL, changed_at = clock_timestamp()
            WHERE name = @Name AND disabled_at IS NOT NULL
            """;
        _rotateSql = $"""
            UPDATE "{s}".webhook_endpoint
            SET previous_secret = secret, secret = @Secret, previous_secret_until = now() + make_interval(secs => @OverlapSeconds),
                changed_at = clock_timestamp()
            WHERE name = @Name
            """;
        _changesSql = $"""SELECT {columns} FROM "{s}".webhook_endpoint WHERE @Since::timestamptz IS NULL OR changed_at >= @Since::timestamptz""";
    }

    public async Task<bool> AddAsync(string name, string url, string secret, bool allowPrivate, CancellationToken cancellationToken) =>
        await ExecuteAsync(_addSql, new { Name = name, Url = url, Secret = secret, AllowPrivate = allowPrivate }, cancellationToken) > 0;

    public Task<IReadOnlyList<WebhookEndpoint>> ListAsync(CancellationToken cancellationToken) => QueryAsync(_listSql, null, cancellationToken);

    public async Task<WebhookEndpoint?> FindAsync(string name, CancellationToken cancellationToken) =>
        (await QueryAsync(_findSql, new { Name = name }, cancellationToken)).SingleOrDefault();

    public async Task<bool> DisableAsync(string name, string reason, CancellationToken cancellationToken) =>
        await ExecuteAsync(_disableSql, new { Name = name, Reason = WebhookEndpointRow.TruncateReason(reason) }, cancellationToken) > 0;

    public async Task<bool> EnableAsync(string name, CancellationToken cancellationToken) =>
        await ExecuteAsync(_enableSql, new { Name = name }, cancellationToken) > 0;

    public async Task<bool> RotateSecretAsync(string name, string secret, TimeSpan overlap, CancellationToken cancellationToken) =>
        await ExecuteAsync(_rotateSql, new { Name = name, Secret = secret, OverlapSeconds = overlap.TotalSeconds }, cancellationToken) > 0;

    public Task<IReadOnlyList<WebhookEndpoint>> ChangesSinceAsync(DateTimeOffset? since, CancellationToken cancellationToken) =>
        QueryAsync(_changesSql, new { Since = since?.UtcDateTime }, cancellationToken);

    private async Task<int> ExecuteAsync(string sql, object parameters, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    private async Task<IReadOnlyList<WebhookEndpoint>> QueryAsync(string sql, object? parameters, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<WebhookEndpointRow>(
            new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToEndpoint()).ToList();
    }
}
