using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The webhook endpoints on SQL Server.</summary>
internal sealed class SqlServerWebhookEndpointStore : IWebhookEndpointStore
{
    // Read as UTC datetime2, the type PostgreSQL's timestamptz arrives as (one row type for both dialects).
    private const string Columns = """
        name AS Name, url AS Url, secret AS Secret, previous_secret AS PreviousSecret,
        CAST(SWITCHOFFSET(previous_secret_until, '+00:00') AS datetime2(3)) AS PreviousSecretUntil, allow_private AS AllowPrivate,
        CAST(SWITCHOFFSET(disabled_at, '+00:00') AS datetime2(3)) AS DisabledAt, disabled_reason AS DisabledReason,
        CAST(SWITCHOFFSET(created_at, '+00:00') AS datetime2(3)) AS CreatedAt, CAST(SWITCHOFFSET(changed_at, '+00:00') AS datetime2(3)) AS ChangedAt
        """;

    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerWebhookEndpointStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        AddSql = $"""
            INSERT INTO [{s}].[webhook_endpoint] (name, url, secret, allow_private)
            SELECT @Name, @Url, @Secret, @AllowPrivate
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[webhook_endpoint] WITH (UPDLOCK, HOLDLOCK) WHERE name = @Name);
            """;
        ListSql = $"SELECT {Columns} FROM [{s}].[webhook_endpoint] ORDER BY name;";
        FindSql = $"SELECT {Columns} FROM [{s}].[webhook_endpoint] WHERE name = @Name;";
        DisableSql = $"""
            UPDATE [{s}].[webhook_endpoint] SET disabled_at = SYSUTCDATETIME(), disabled_reason = @Reason, changed_at = SYSUTCDATETIME()
            WHERE name = @Name AND disabled_at IS NULL;
            """;
        EnableSql = $"""
            UPDATE [{s}].[webhook_endpoint] SET disabled_at = NULL, disabled_reason = NULL, changed_at = SYSUTCDATETIME()
            WHERE name = @Name AND disabled_at IS NOT NULL;
            """;
        RotateSql = $"""
            UPDATE [{s}].[webhook_endpoint]
            SET previous_secret = secret, secret = @Secret, previous_secret_until = DATEADD(second, @OverlapSeconds, SYSUTCDATETIME()),
                changed_at = SYSUTCDATETIME()
            WHERE name = @Name;
            """;
        ChangesSql = $"SELECT {Columns} FROM [{s}].[webhook_endpoint] WHERE @Since IS NULL OR changed_at >= @Since;";
    }

    internal string AddSql { get; }

    internal string ListSql { get; }

    internal string FindSql { get; }

    internal string DisableSql { get; }

    internal string EnableSql { get; }

    internal string RotateSql { get; }

    internal string ChangesSql { get; }

    public async Task<bool> AddAsync(string name, string url, string secret, bool allowPrivate, CancellationToken cancellationToken) =>
        await ExecuteAsync(AddSql, new { Name = name, Url = url, Secret = secret, AllowPrivate = allowPrivate }, cancellationToken) > 0;

    public Task<IReadOnlyList<WebhookEndpoint>> ListAsync(CancellationToken cancellationToken) => QueryAsync(ListSql, null, cancellationToken);

    public async Task<WebhookEndpoint?> FindAsync(string name, CancellationToken cancellationToken) =>
        (await QueryAsync(FindSql, new { Name = name }, cancellationToken)).SingleOrDefault();

    public async Task<bool> DisableAsync(string name, string reason, CancellationToken cancellationToken) =>
        await ExecuteAsync(DisableSql, new { Name = name, Reason = WebhookEndpointRow.TruncateReason(reason) }, cancellationToken) > 0;

    public async Task<bool> EnableAsync(string name, CancellationToken cancellationToken) =>
        await ExecuteAsync(EnableSql, new { Name = name }, cancellationToken) > 0;

    public async Task<bool> RotateSecretAsync(string name, string secret, TimeSpan overlap, CancellationToken cancellationToken) =>
        await ExecuteAsync(RotateSql, new { Name = name, Secret = secret, OverlapSeconds = (int)overlap.TotalSeconds }, cancellationToken) > 0;

    public Task<IReadOnlyList<WebhookEndpoint>> ChangesSinceAsync(DateTimeOffset? since, CancellationToken cancellationToken) =>
        QueryAsync(ChangesSql, new { Since = since?.ToUniversalTime() }, cancellationToken);

    private async Task<int> ExecuteAsync(string sql, object parameters, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    private async Task<IReadOnlyList<WebhookEndpoint>> QueryAsync(string sql, object? parameters, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<WebhookEndpointRow>(
            new CommandDefinition(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToEndpoint()).ToList();
    }
}
