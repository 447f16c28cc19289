using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>Outcome events on SQL Server.</summary>
internal sealed class SqlServerOutcomeEventStore : IOutcomeEventStore
{
    private readonly string _connectionString;
    private readonly OutcomeEvents _writer;
    private readonly int _timeoutSeconds;

    public SqlServerOutcomeEventStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _writer = new OutcomeEvents(options);
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        ListSql = $"""SELECT endpoint AS Endpoint, event_type AS EventType FROM [{s}].[webhook_event_subscription] ORDER BY endpoint, event_type;""";
        SubscribeSql = $"""
            INSERT INTO [{s}].[webhook_event_subscription] (endpoint, event_type)
            SELECT @Endpoint, @EventType
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[webhook_event_subscription] WITH (UPDLOCK, HOLDLOCK)
                              WHERE endpoint = @Endpoint AND event_type = @EventType);
            """;
        UnsubscribeSql = $"""DELETE FROM [{s}].[webhook_event_subscription] WHERE endpoint = @Endpoint AND event_type = @EventType;""";
        TypesSql = $"""
            SELECT DISTINCT sub.event_type FROM [{s}].[webhook_event_subscription] AS sub
            JOIN [{s}].[webhook_endpoint] AS w ON w.name = sub.endpoint AND w.disabled_at IS NULL;
            """;
        PredecessorSql = $"""
            SELECT CASE WHEN EXISTS (
                SELECT 1 FROM [{s}].[outcome_event] AS me
                JOIN [{s}].[outcome_event] AS p ON p.notification_id = me.notification_id AND p.endpoint = me.endpoint AND p.event_id < me.event_id
                WHERE me.event_id = @Id
                  AND NOT EXISTS (SELECT 1 FROM [{s}].[delivery_log] AS d WHERE d.notification_id = p.event_id AND d.status = 'sent')
                  AND NOT EXISTS (SELECT 1 FROM [{s}].[dead_letter] AS x WHERE x.notification_id = p.event_id))
            THEN CAST(1 AS bit) ELSE CAST(0 AS bit) END;
            """;
    }

    internal string ListSql { get; }

    internal string SubscribeSql { get; }

    internal string UnsubscribeSql { get; }

    internal string TypesSql { get; }

    internal string PredecessorSql { get; }

    public async Task<IReadOnlyList<OutcomeSubscription>> ListSubscriptionsAsync(CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QueryAsync<OutcomeSubscription>(Command(ListSql, null, cancellationToken))).AsList();
    }

    public Task<bool> SubscribeAsync(string endpoint, string eventType, CancellationToken cancellationToken) =>
        ChangeAsync(SubscribeSql, endpoint, eventType, cancellationToken);

    public Task<bool> UnsubscribeAsync(string endpoint, string eventType, CancellationToken cancellationToken) =>
        ChangeAsync(UnsubscribeSql, endpoint, eventType, cancellationToken);

    public async Task<IReadOnlySet<string>> SubscribedTypesAsync(CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QueryAsync<string>(Command(TypesSql, null, cancellationToken))).ToHashSet(StringComparer.Ordinal);
    }

    public async Task WriteAsync(IReadOnlyCollection<OutcomeEvent> events, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await _writer.WriteAsync(connection, transaction, events, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
    }

    public async Task<bool> HasUnsettledPredecessorAsync(long eventId, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<bool>(Command(PredecessorSql, new { Id = eventId }, cancellationToken));
    }

    private async Task<bool> ChangeAsync(string sql, string endpoint, string eventType, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(Command(sql, new { Endpoint = endpoint, EventType = eventType }, cancellationToken)) == 1;
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
