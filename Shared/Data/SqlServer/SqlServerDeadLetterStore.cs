using System.Text.Json;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>dead_letter</c> table on SQL Server; a batch travels as one JSON array read by OPENJSON.</summary>
internal sealed class SqlServerDeadLetterStore : IDeadLetterStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerDeadLetterStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        const string rows = """
            OPENJSON(@DeadLetters) WITH (id bigint '$.id', reason nvarchar(1000) '$.reason', attempts int '$.attempts',
                                         at datetimeoffset(3) '$.at')
            """;
        RecordWithIdSql = $"""
            MERGE [{s}].[dead_letter] WITH (HOLDLOCK) AS t
            USING (SELECT id, reason, attempts, at FROM {rows}) AS src
            ON t.notification_id = src.id
            WHEN MATCHED THEN UPDATE SET reason = src.reason, attempts = src.attempts, dead_lettered_at = src.at
            WHEN NOT MATCHED THEN INSERT (notification_id, reason, attempts, dead_lettered_at) VALUES (src.id, src.reason, src.attempts, src.at);
            """;
        RecordWithoutIdSql = $"""
            INSERT INTO [{s}].[dead_letter] (notification_id, reason, attempts, dead_lettered_at)
            SELECT NULL, reason, attempts, at FROM {rows};
            """;
        RemoveSql = $"""
            DELETE FROM [{s}].[dead_letter]
            WHERE dead_lettered_at = @At
              AND ((@Id IS NOT NULL AND notification_id = @Id)
                   OR (@Id IS NULL AND notification_id IS NULL AND reason = @Reason));
            """;
        RemoveAllSql = $"""DELETE FROM [{s}].[dead_letter] WHERE dead_lettered_at <= @UpTo;""";
    }

    internal string RecordWithIdSql { get; }

    internal string RecordWithoutIdSql { get; }

    internal string RemoveSql { get; }

    internal string RemoveAllSql { get; }

    public async Task RecordAsync(IReadOnlyCollection<DeadLetterRecord> deadLetters, CancellationToken cancellationToken)
    {
        var (withId, withoutId) = DeadLetterRecord.Split(deadLetters);
        await using var connection = new SqlConnection(_connectionString);
        if (withId.Length > 0)
        {
            await connection.ExecuteAsync(Command(RecordWithIdSql, new { DeadLetters = Json(withId) }, cancellationToken));
        }

        if (withoutId.Length > 0)
        {
            await connection.ExecuteAsync(Command(RecordWithoutIdSql, new { DeadLetters = Json(withoutId) }, cancellationToken));
        }
    }

    public async Task<int> RemoveAsync(DeadLetterRecord deadLetter, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(Command(RemoveSql,
            new { Id = deadLetter.NotificationId, Reason = deadLetter.StoredReason, At = deadLetter.StoredAt }, cancellationToken));
    }

    public async Task<long> RemoveAllAsync(DateTimeOffset upTo, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(Command(RemoveAllSql, new { UpTo = upTo }, cancellationToken));
    }

    private static string Json(IEnumerable<DeadLetterRecord> deadLetters) =>
        JsonSerializer.Serialize(deadLetters.Select(d => new { id = d.NotificationId, reason = d.StoredReason, attempts = d.Attempts, at = d.StoredAt }));

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
