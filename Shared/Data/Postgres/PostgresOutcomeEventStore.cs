using Dapper;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>Outcome events on PostgreSQL.</summary>
internal sealed class PostgresOutcomeEventStore : IOutcomeEventStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly OutcomeEvents _writer;
    private readonly int _timeoutSeconds;
    private readonly string _listSql;
    private readonly string _subscribeSql;
    private readonly string _unsubscribeSql;
    private readonly string _typesSql;
    private readonly string _predecessorSql;

    public PostgresOutcomeEventStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _writer = new OutcomeEvents(options);
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        _listSql = $"""SELECT endpoint, event_type AS eventtype FROM "{s}".webhook_event_subscription ORDER BY endpoint, event_type""";
        _subscribeSql = $"""
            INSERT INTO "{s}".webhook_event_subscription (endpoint, event_type) VALUES (@Endpoint, @EventType) ON CONFLICT DO NOTHING
            """;
        _unsubscribeSql = $"""DELETE FROM "{s}".webhook_event_subscription WHERE endpoint = @Endpoint AND event_type = @EventType""";
        _typesSql = $"""
            SELECT DISTINCT sub.event_type FROM "{s}".webhook_event_subscription AS sub
            JOIN "{s}".webhook_endpoint AS w ON w.name = sub.endpoint AND w.disabled_at IS NULL
            """;
        _predecessorSql = $"""
            SELECT EXISTS (
                SELECT 1 FROM "{s}".outcome_event AS me
                JOIN "{s}".outcome_event AS p ON p.notification_id = me.notification_id AND p.endpoint = me.endpoint AND p.event_id < me.event_id
                WHERE me.event_id = @Id
                  AND NOT EXISTS (SELECT 1 FROM "{s}".delivery_log AS d WHERE d.notification_id = p.event_id AND d.status = 'sent')
                  AND NOT EXISTS (SELECT 1 FROM "{s}".dead_letter AS x WHERE x.notification_id = p.event_id))
            """;
    }

    public async Task<IReadOnlyList<OutcomeSubscription>> ListSubscriptionsAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<OutcomeSubscription>(Command(_listSql, null, cancellationToken))).AsList();
    }

    public Task<bool> SubscribeAsync(string endpoint, string eventType, CancellationToken cancellationToken) =>
        ChangeAsync(_subscribeSql, endpoint, eventType, cancellationToken);

    public Task<bool> UnsubscribeAsync(string endpoint, string eventType, CancellationToken cancellationToken) =>
        ChangeAsync(_unsubscribeSql, endpoint, eventType, cancellationToken);

    public async Task<IReadOnlySet<string>> SubscribedTypesAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<string>(Command(_typesSql, null, cancellationToken))).ToHashSet(StringComparer.Ordinal);
    }

    public async Task WriteAsync(IReadOnlyCollection<OutcomeEvent> events, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await _writer.WriteAsync(connection, transaction, events, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
    }

    public async Task<bool> HasUnsettledPredecessorAsync(long eventId, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<bool>(Command(_predecessorSql, new { Id = eventId }, cancellationToken));
    }

    private async Task<bool> ChangeAsync(string sql, string endpoint, string eventType, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(Command(sql, new { Endpoint = endpoint, EventType = eventType }, cancellationToken)) == 1;
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
