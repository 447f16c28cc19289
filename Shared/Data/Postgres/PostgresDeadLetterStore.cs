using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>dead_letter</c> table on PostgreSQL; a batch travels as parallel arrays.</summary>
internal sealed class PostgresDeadLetterStore : IDeadLetterStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _recordWithIdSql;
    private readonly string _recordWithoutIdSql;
    private readonly string _removeSql;
    private readonly string _removeAllSql;

    public PostgresDeadLetterStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        _recordWithIdSql = $"""
            INSERT INTO "{s}".dead_letter (notification_id, reason, attempts, dead_lettered_at)
            SELECT * FROM unnest(@Ids, @Reasons, @Attempts, @Ats)
            ON CONFLICT (notification_id) WHERE notification_id IS NOT NULL DO UPDATE
                SET reason = EXCLUDED.reason, attempts = EXCLUDED.attempts, dead_lettered_at = EXCLUDED.dead_lettered_at
            """;
        _recordWithoutIdSql = $"""
            INSERT INTO "{s}".dead_letter (notification_id, reason, attempts, dead_lettered_at)
            SELECT NULL, reason, attempts, at FROM unnest(@Reasons, @Attempts, @Ats) AS d(reason, attempts, at)
            """;
        _removeSql = $"""
            DELETE FROM "{s}".dead_letter
            WHERE dead_lettered_at = @At
              AND ((@Id::bigint IS NOT NULL AND notification_id = @Id)
                   OR (@Id::bigint IS NULL AND notification_id IS NULL AND reason = @Reason))
            """;
        _removeAllSql = $"""DELETE FROM "{s}".dead_letter WHERE dead_lettered_at <= @UpTo""";
    }

    public async Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, CancellationToken cancellationToken)
    {
        var (withId, withoutId) = DeadLetterRecord.Split(deadLetters);
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        if (withId.Length > 0)
        {
            await connection.ExecuteAsync(Command(_recordWithIdSql, new
            {
                Ids = withId.Select(d => d.NotificationId!.Value).ToArray(),
                Reasons = withId.Select(d => d.StoredReason).ToArray(),
                Attempts = withId.Select(d => d.Attempts).ToArray(),
                Ats = withId.Select(d => d.StoredAt.UtcDateTime).ToArray(),
            }, cancellationToken));
        }

        if (withoutId.Length > 0)
        {
            await connection.ExecuteAsync(Command(_recordWithoutIdSql, new
            {
                Reasons = withoutId.Select(d => d.StoredReason).ToArray(),
                Attempts = withoutId.Select(d => d.Attempts).ToArray(),
                Ats = withoutId.Select(d => d.StoredAt.UtcDateTime).ToArray(),
            }, cancellationToken));
        }
    }

    public async Task<int> RemoveAsync(DeadLetterRecord deadLetter, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(Command(_removeSql,
            new { Id = deadLetter.NotificationId, Reason = deadLetter.StoredReason, At = deadLetter.StoredAt.UtcDateTime }, cancellationToken));
    }

    public async Task<long> RemoveAllAsync(DateTimeOffset upTo, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(Command(_removeAllSql, new { UpTo = upTo.UtcDateTime }, cancellationToken));
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
