using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The subscribers' preferences on SQL Server (the consumer's read and its 'opted_out' record; the opt-out by a link).</summary>
internal sealed class SqlServerPreferenceStore : IPreferenceStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerPreferenceStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // As PostgreSQL's: one owner's opt-out is enough.
        FindSql = $"""
            SELECT TOP (1) s.external_id AS SubscriberId, CAST(CASE WHEN p.enabled IS NULL THEN 0 ELSE 1 END AS bit) AS ByPreference
            FROM [{s}].[contact_point] AS cp
            JOIN [{s}].[subscriber] AS s ON s.id = cp.subscriber_id
            JOIN [{s}].[category] AS c ON c.name = @Category AND c.critical = 0
            LEFT JOIN [{s}].[preference] AS p ON p.subscriber_id = cp.subscriber_id AND p.category = c.name AND p.channel = cp.channel
            LEFT JOIN [{s}].[category_default] AS d ON d.category = c.name AND d.channel = cp.channel
            WHERE cp.channel = @Channel AND cp.address = @Address AND COALESCE(p.enabled, d.enabled, CAST(1 AS bit)) = 0
            ORDER BY s.external_id;
            """;
        // The live channel has no contact point: its address is the subscriber itself.
        FindLiveSql = $"""
            SELECT s.external_id AS SubscriberId, CAST(CASE WHEN p.enabled IS NULL THEN 0 ELSE 1 END AS bit) AS ByPreference
            FROM [{s}].[subscriber] AS s
            JOIN [{s}].[category] AS c ON c.name = @Category AND c.critical = 0
            LEFT JOIN [{s}].[preference] AS p ON p.subscriber_id = s.id AND p.category = c.name AND p.channel = 'live'
            LEFT JOIN [{s}].[category_default] AS d ON d.category = c.name AND d.channel = 'live'
            WHERE s.external_id = @Subscriber AND COALESCE(p.enabled, d.enabled, CAST(1 AS bit)) = 0;
            """;
        RecordSql = $"""
            INSERT INTO [{s}].[delivery_log] (notification_id, status, created_at, attempts, reason)
            SELECT @Id, 'opted_out', @CreatedAt, @Attempts, @Reason
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[delivery_log] WITH (UPDLOCK, HOLDLOCK) WHERE notification_id = @Id);
            """;
        OptOutSql = $"EXEC [{s}].[opt_out_by_link] @channel = @Channel, @address = @Address, @category = @Category;";
    }

    internal string FindSql { get; }

    internal string RecordSql { get; }

    internal string FindLiveSql { get; }

    internal string OptOutSql { get; }

    public async Task<OptOut?> FindOptOutAsync(string channel, string address, string category, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.QuerySingleOrDefaultAsync<OptOut>(channel == AudienceRules.Live
            ? new CommandDefinition(FindLiveSql, new { Subscriber = RegistryKeys.SubscriberId(address), Category = RegistryKeys.Category(category) },
                commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken)
            : new CommandDefinition(FindSql, Keys(channel, address, category), commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task RecordOptedOutAsync(SentNotification notification, string reason, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(new CommandDefinition(RecordSql, new
        {
            notification.Id,
            notification.CreatedAt,
            notification.Attempts,
            Reason = reason,
        }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<int> OptOutByLinkAsync(string channel, string address, string category, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<int>(new CommandDefinition(OptOutSql, Keys(channel, address, category),
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    // Category and channel as the registry's varchar keys; the address nvarchar(320), as the column.
    private static object Keys(string channel, string address, string category) => new
    {
        Channel = RegistryKeys.Channel(channel),
        Address = new DbString { Value = address, Length = 320 },
        Category = RegistryKeys.Category(category),
    };
}
