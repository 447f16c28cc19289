using System.Text.Json;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>dead_letter</c> table on SQL Server; a batch travels as one JSON array read by OPENJSON.</summary>
internal sealed class SqlServerDeadLetterStore : IDeadLetterStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;
    private readonly OutcomeEvents _events;

    public SqlServerDeadLetterStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        _events = new OutcomeEvents(options);
        string s = options.Schema;
        // The bytes travel as base64 (JSON has no binary); XQuery's xs:base64Binary turns them back.
        RecordSql = $"""
            INSERT INTO [{s}].[dead_letter]
                (letter_key, notification_id, reason, attempts, dead_lettered_at, message_id, message_type, content_type, body, reason_class)
            SELECT d.letter_key, d.id, d.reason, d.attempts, d.at, d.message_id, d.message_type, d.content_type,
                   CAST(N'' AS xml).value('xs:base64Binary(sql:column("d.body"))', 'varbinary(max)'), d.reason_class
            FROM OPENJSON(@DeadLetters) WITH (
                letter_key uniqueidentifier '$.key', id bigint '$.id', reason nvarchar(1000) '$.reason', attempts int '$.attempts',
                at datetimeoffset(3) '$.at', message_id nvarchar(255) '$.messageId', message_type nvarchar(255) '$.type',
                content_type nvarchar(255) '$.contentType', body varchar(max) '$.body', reason_class nvarchar(200) '$.reasonClass') AS d
            WHERE d.letter_key IS NULL
               OR NOT EXISTS (SELECT 1 FROM [{s}].[dead_letter] AS e WITH (UPDLOCK, HOLDLOCK) WHERE e.letter_key = d.letter_key);
            """;
        FindSql = $"""
            SELECT letter_key AS [Key], notification_id AS NotificationId, reason AS Reason, attempts AS Attempts,
                   CAST(SWITCHOFFSET(dead_lettered_at, '+00:00') AS datetime2(3)) AS DeadLetteredAt, message_id AS MessageId, message_type AS MessageType, content_type AS ContentType, body AS Body
            FROM [{s}].[dead_letter] WHERE letter_key = @Key;
            """;
        FindRecordedSql = $"""
            SELECT d.letter_key FROM [{s}].[dead_letter] AS d
            WHERE d.letter_key IN (SELECT k.letter_key FROM OPENJSON(@Keys) WITH (letter_key uniqueidentifier '$') AS k);
            """;
        RemoveSql = $"""
            DELETE FROM [{s}].[dead_letter]
            WHERE dead_lettered_at = @At
              AND ((@Key IS NOT NULL AND letter_key = @Key)
                   OR (@Key IS NULL AND letter_key IS NULL
                       AND ((@Id IS NOT NULL AND notification_id = @Id)
                            OR (@Id IS NULL AND notification_id IS NULL AND reason = @Reason))));
            """;
        // A notification's attached files go with its last record, as the retention cleanup deletes them.
        RemoveAllSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            DECLARE @gone TABLE (notification_id bigint NULL);
            BEGIN TRANSACTION;
            DELETE FROM [{s}].[dead_letter]
            OUTPUT DELETED.notification_id INTO @gone
            WHERE dead_lettered_at <= @UpTo;
            DELETE a FROM [{s}].[attachment] AS a
            WHERE a.notification_id IN (SELECT notification_id FROM @gone);
            COMMIT TRANSACTION;
            SELECT COUNT_BIG(*) FROM @gone;
            """;
    }

    internal string RecordSql { get; }

    internal string RemoveSql { get; }

    internal string FindSql { get; }

    internal string FindRecordedSql { get; }

    internal string RemoveAllSql { get; }

    public Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, CancellationToken cancellationToken) =>
        RecordAsync(deadLetters, [], cancellationToken);

    public async Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, IReadOnlyCollection<OutcomeEvent> events, CancellationToken cancellationToken)
    {
        if (deadLetters.Count == 0)
        {
            return;
        }

        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var transaction = events.Count > 0 ? await connection.BeginTransactionAsync(cancellationToken) : null;
        await connection.ExecuteAsync(Command(RecordSql, new { DeadLetters = Json(deadLetters) }, cancellationToken, transaction));
        if (transaction is not null)
        {
            await _events.WriteAsync(connection, transaction, events, cancellationToken);
            await transaction.CommitAsync(cancellationToken);
        }
    }

    public async Task<IReadOnlySet<Guid>> FindRecordedAsync(IReadOnlyCollection<Guid> keys, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QueryAsync<Guid>(Command(FindRecordedSql, new { Keys = JsonSerializer.Serialize(keys) }, cancellationToken))).ToHashSet();
    }

    public async Task<DeadLetterRecord?> FindAsync(Guid key, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var row = await connection.QuerySingleOrDefaultAsync<DeadLetterRow>(Command(FindSql, new { Key = key }, cancellationToken));
        return row?.ToRecord();
    }

    public async Task<int> RemoveAsync(DeadLetterRecord deadLetter, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(Command(RemoveSql,
            new { deadLetter.Key, Id = deadLetter.NotificationId, Reason = deadLetter.StoredReason, At = deadLetter.StoredAt }, cancellationToken));
    }

    public async Task<long> RemoveAllAsync(DateTimeOffset upTo, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<long>(Command(RemoveAllSql, new { UpTo = upTo }, cancellationToken));
    }

    // System.Text.Json writes a byte[] as base64. One row per key: the same key twice in a batch would break the unique index.
    private static string Json(IEnumerable<DeadLetterRecord> deadLetters) =>
        JsonSerializer.Serialize(deadLetters.DistinctBy(d => d.Key ?? Guid.NewGuid()).Select(d => new
        {
            key = d.Key, id = d.NotificationId, reason = d.StoredReason, attempts = d.Attempts, at = d.StoredAt,
            messageId = DeadLetterRecord.Cut(d.MessageId), type = DeadLetterRecord.Cut(d.MessageType),
            contentType = DeadLetterRecord.Cut(d.ContentType), body = d.Body, reasonClass = d.StoredReasonClass,
        }));

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken, System.Data.Common.DbTransaction? transaction = null) =>
        new(sql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken);
}
