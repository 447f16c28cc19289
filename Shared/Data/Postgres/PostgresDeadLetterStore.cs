using Dapper;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>dead_letter</c> table on PostgreSQL; a batch travels as parallel arrays.</summary>
internal sealed class PostgresDeadLetterStore : IDeadLetterStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly OutcomeEvents _events;
    private readonly string _recordSql;
    private readonly string _removeSql;
    private readonly string _findSql;
    private readonly string _findRecordedSql;
    private readonly string _removeAllSql;

    public PostgresDeadLetterStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        _events = new OutcomeEvents(options);
        string s = options.Schema;
        _recordSql = $"""
            INSERT INTO "{s}".dead_letter
                (letter_key, notification_id, reason, attempts, dead_lettered_at, message_id, message_type, content_type, body, reason_class)
            SELECT * FROM unnest(@Keys, @Ids, @Reasons, @Attempts, @Ats, @MessageIds, @Types, @ContentTypes, @Bodies, @Classes)
            ON CONFLICT (letter_key) WHERE letter_key IS NOT NULL DO NOTHING
            """;
        _findSql = $"""
            SELECT letter_key AS Key, notification_id AS NotificationId, reason AS Reason, attempts AS Attempts,
                   dead_lettered_at AS DeadLetteredAt, message_id AS MessageId, message_type AS MessageType, content_type AS ContentType, body AS Body
            FROM "{s}".dead_letter WHERE letter_key = @Key
            """;
        _findRecordedSql = $"""SELECT letter_key FROM "{s}".dead_letter WHERE letter_key = ANY(@Keys)""";
        _removeSql = $"""
            DELETE FROM "{s}".dead_letter
            WHERE dead_lettered_at = @At
              AND ((@Key::uuid IS NOT NULL AND letter_key = @Key)
                   OR (@Key::uuid IS NULL AND letter_key IS NULL
                       AND ((@Id::bigint IS NOT NULL AND notification_id = @Id)
                            OR (@Id::bigint IS NULL AND notification_id IS NULL AND reason = @Reason))))
            """;
        // A notification's attached files go with its last record, as the retention cleanup deletes them.
        _removeAllSql = $"""
            WITH gone AS (DELETE FROM "{s}".dead_letter WHERE dead_lettered_at <= @UpTo RETURNING notification_id),
            files AS (DELETE FROM "{s}".attachment AS a USING gone WHERE a.notification_id = gone.notification_id)
            SELECT count(*) FROM gone
            """;
    }

    public Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, CancellationToken cancellationToken) =>
        RecordAsync(deadLetters, [], cancellationToken);

    public async Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, IReadOnlyCollection<OutcomeEvent> events, CancellationToken cancellationToken)
    {
        if (deadLetters.Count == 0)
        {
            return;
        }

        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = events.Count > 0 ? await connection.BeginTransactionAsync(cancellationToken) : null;
        await connection.ExecuteAsync(Command(_recordSql, new
        {
            Keys = deadLetters.Select(d => d.Key).ToArray(),
            Ids = deadLetters.Select(d => d.NotificationId).ToArray(),
            Reasons = deadLetters.Select(d => d.StoredReason).ToArray(),
            Attempts = deadLetters.Select(d => d.Attempts).ToArray(),
            Ats = deadLetters.Select(d => d.StoredAt.UtcDateTime).ToArray(),
            MessageIds = deadLetters.Select(d => DeadLetterRecord.Cut(d.MessageId)).ToArray(),
            Types = deadLetters.Select(d => DeadLetterRecord.Cut(d.MessageType)).ToArray(),
            ContentTypes = deadLetters.Select(d => DeadLetterRecord.Cut(d.ContentType)).ToArray(),
            Bodies = deadLetters.Select(d => d.Body).ToArray(),
            Classes = deadLetters.Select(d => d.StoredReasonClass).ToArray(),
        }, cancellationToken, transaction));
        if (transaction is not null)
        {
            await _events.WriteAsync(connection, transaction, events, cancellationToken);
            await transaction.CommitAsync(cancellationToken);
        }
    }

    public async Task<IReadOnlySet<Guid>> FindRecordedAsync(IReadOnlyCollection<Guid> keys, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<Guid>(Command(_findRecordedSql, new { Keys = keys.ToArray() }, cancellationToken))).ToHashSet();
    }

    public async Task<DeadLetterRecord?> FindAsync(Guid key, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<DeadLetterRow>(Command(_findSql, new { Key = key }, cancellationToken));
        return row?.ToRecord();
    }

    public async Task<int> RemoveAsync(DeadLetterRecord deadLetter, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(Command(_removeSql,
            new { deadLetter.Key, Id = deadLetter.NotificationId, Reason = deadLetter.StoredReason, At = deadLetter.StoredAt.UtcDateTime },
            cancellationToken));
    }

    public async Task<long> RemoveAllAsync(DateTimeOffset upTo, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<long>(Command(_removeAllSql, new { UpTo = upTo.UtcDateTime }, cancellationToken));
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken, System.Data.Common.DbTransaction? transaction = null) =>
        new(sql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken);
}
