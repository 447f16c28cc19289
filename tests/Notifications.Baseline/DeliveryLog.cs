using Dapper;
using Npgsql;

namespace Notifications.Baseline;

/// <summary>
/// The project's delivery_log table, one row at a time as the original did: a SELECT by id before the send
/// and an INSERT after it. Same semantics as the at-least-once path's store (PostgresDeliveryLogStore):
/// only status 'sent' means delivered, and the row carries created_at and the attempt number.
/// Each call takes a connection from the pool and gives it back.
/// </summary>
internal sealed class DeliveryLog(NpgsqlDataSource dataSource, string schema)
{
    private readonly string _findSentSql = $"""
        SELECT EXISTS (SELECT 1 FROM "{schema}".delivery_log WHERE notification_id = @Id AND status = 'sent')
        """;

    private readonly string _recordSentSql = $"""
        INSERT INTO "{schema}".delivery_log (notification_id, status, created_at, attempts)
        VALUES (@Id, 'sent', @CreatedAt, 1)
        ON CONFLICT (notification_id) DO UPDATE
            SET status = 'sent', updated_at = now(), created_at = EXCLUDED.created_at, attempts = EXCLUDED.attempts
        """;

    public async Task<bool> IsSentAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<bool>(new CommandDefinition(_findSentSql, new { Id = id }, cancellationToken: cancellationToken));
    }

    public async Task RecordSentAsync(long id, DateTimeOffset createdAt, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(
            _recordSentSql, new { Id = id, CreatedAt = createdAt.UtcDateTime }, cancellationToken: cancellationToken));
    }
}
