using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>
/// The delivery log on SQL Server. A batch of ids travels as one JSON array read by OPENJSON:
/// a single parameter, no table type to deploy, and one plan for every batch size.
/// </summary>
internal sealed class SqlServerDeliveryLogStore : IDeliveryLogStore
{
    private readonly string _connectionString;
    private readonly OutcomeEvents _outcomes;
    private readonly int _timeoutSeconds;

    public SqlServerDeliveryLogStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _outcomes = new OutcomeEvents(options);
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        const string ids = "(SELECT DISTINCT id FROM OPENJSON(@Ids) WITH (id bigint '$'))";
        FindSentSql = $"""
            SELECT d.notification_id FROM [{s}].[delivery_log] AS d
            WHERE d.status = 'sent' AND d.notification_id IN (SELECT id FROM {ids} AS j);
            """;
        RecordSentSql = $"""
            MERGE [{s}].[delivery_log] WITH (HOLDLOCK) AS t
            USING (SELECT id, MAX(created_at) AS created_at, MAX(attempts) AS attempts, MAX(claimed_at) AS claimed_at,
                          MAX(published_at) AS published_at, MAX(trace_id) AS trace_id
                   FROM OPENJSON(@Sent) WITH (id bigint '$.id', created_at datetimeoffset(3) '$.createdAt', attempts int '$.attempts',
                        claimed_at datetimeoffset(3) '$.claimedAt', published_at datetimeoffset(3) '$.publishedAt', trace_id char(32) '$.traceId')
                   GROUP BY id) AS src ON t.notification_id = src.id
            WHEN MATCHED THEN UPDATE SET status = 'sent', updated_at = SYSUTCDATETIME(), created_at = COALESCE(src.created_at, t.created_at),
                                         attempts = COALESCE(src.attempts, t.attempts), claimed_at = COALESCE(src.claimed_at, t.claimed_at),
                                         published_at = COALESCE(src.published_at, t.published_at), trace_id = COALESCE(src.trace_id, t.trace_id)
            WHEN NOT MATCHED THEN INSERT (notification_id, status, created_at, attempts, claimed_at, published_at, trace_id)
                VALUES (src.id, 'sent', src.created_at, src.attempts, src.claimed_at, src.published_at, src.trace_id);
            """;
        // A 'handing_back' mark is taken over first, then the ids without a row are inserted; both kinds are returned.
        MarkSendingSql = $"""
            SET NOCOUNT ON;
            DECLARE @owned TABLE (id bigint NOT NULL);
            UPDATE d SET status = 'sending', updated_at = SYSUTCDATETIME()
            OUTPUT INSERTED.notification_id INTO @owned (id)
            FROM [{s}].[delivery_log] AS d WITH (UPDLOCK, HOLDLOCK)
            WHERE d.status = 'handing_back' AND d.notification_id IN (SELECT id FROM {ids} AS j);
            INSERT INTO [{s}].[delivery_log] (notification_id, status)
            OUTPUT INSERTED.notification_id INTO @owned (id)
            SELECT j.id, 'sending' FROM {ids} AS j
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[delivery_log] AS d WITH (UPDLOCK, HOLDLOCK)
                              WHERE d.notification_id = j.id);
            SELECT id FROM @owned;
            """;
        ReleaseSql = $"""
            DELETE FROM [{s}].[delivery_log]
            WHERE status = 'sending' AND notification_id IN (SELECT id FROM {ids} AS j);
            """;
        MarkHandingBackSql = $"""
            UPDATE [{s}].[delivery_log] SET status = 'handing_back', updated_at = SYSUTCDATETIME()
            WHERE status = 'sending' AND notification_id IN (SELECT id FROM {ids} AS j);
            """;
        ReleaseHandedBackSql = $"""
            DELETE FROM [{s}].[delivery_log]
            WHERE status = 'handing_back' AND notification_id IN (SELECT id FROM {ids} AS j);
            """;
        RecordMaybeSentSql = $"""
            UPDATE d SET reason = m.reason, attempts = m.attempts, updated_at = SYSUTCDATETIME()
            FROM [{s}].[delivery_log] AS d
            JOIN (SELECT id, MAX(attempts) AS attempts, MAX(reason) AS reason
                  FROM OPENJSON(@MaybeSent) WITH (id bigint '$.id', attempts int '$.attempts', reason nvarchar(1000) '$.reason')
                  GROUP BY id) AS m ON d.notification_id = m.id
            WHERE d.status = 'sending';
            """;
        RecordFailedSql = $"""
            INSERT INTO [{s}].[delivery_attempt] (notification_id, attempt, reason, trace_id)
            SELECT f.id, f.attempt, MAX(f.reason), MAX(f.trace_id)
            FROM OPENJSON(@Failed) WITH (id bigint '$.id', attempt int '$.attempt', reason nvarchar(1000) '$.reason', trace_id char(32) '$.traceId') AS f
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[delivery_attempt] AS a WITH (UPDLOCK, HOLDLOCK)
                              WHERE a.notification_id = f.id AND a.attempt = f.attempt)
            GROUP BY f.id, f.attempt;
            """;
    }

    internal string FindSentSql { get; }

    internal string RecordSentSql { get; }

    internal string MarkSendingSql { get; }

    internal string ReleaseSql { get; }

    internal string MarkHandingBackSql { get; }

    internal string ReleaseHandedBackSql { get; }

    internal string RecordMaybeSentSql { get; }

    internal string RecordFailedSql { get; }

    public async Task<IReadOnlySet<long>> FindSentAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        (await QueryAsync(FindSentSql, ids, cancellationToken)).ToHashSet();

    public async Task RecordSentAsync(IReadOnlyCollection<SentNotification> sent, CancellationToken cancellationToken)
    {
        // [{"id":1,"createdAt":"2025-01-01T00:00:00.000+00:00","attempts":1},...]: OPENJSON reads it into rows.
        string json = System.Text.Json.JsonSerializer.Serialize(sent.Select(n => new
        {
            id = n.Id, createdAt = n.CreatedAt, attempts = n.Attempts, claimedAt = n.ClaimedAt, publishedAt = n.PublishedAt, traceId = n.TraceId,
        }));
        var outcomes = sent.Where(n => n.Outcome is not null).Select(n => n.Outcome!).ToArray();
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        // The batch's delivered events in the rows' transaction: without subscribers, the one statement as before.
        await using var transaction = outcomes.Length == 0 ? null : await connection.BeginTransactionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(RecordSentSql, new { Sent = json }, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
        if (transaction is not null)
        {
            await _outcomes.WriteAsync(connection, transaction, outcomes, cancellationToken);
            await transaction.CommitAsync(cancellationToken);
        }
    }

    public async Task<IReadOnlySet<long>> TryMarkSendingAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        (await QueryAsync(MarkSendingSql, ids, cancellationToken)).ToHashSet();

    public Task ReleaseAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        ExecuteAsync(ReleaseSql, ids, cancellationToken);

    public Task MarkHandingBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        ExecuteAsync(MarkHandingBackSql, ids, cancellationToken);

    public Task ReleaseHandedBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        ExecuteAsync(ReleaseHandedBackSql, ids, cancellationToken);

    public async Task RecordMaybeSentAsync(IReadOnlyCollection<MaybeSentNotification> maybeSent, CancellationToken cancellationToken)
    {
        // [{"id":1,"attempts":1,"reason":"..."},...]: OPENJSON reads it into rows (one per id: an UPDATE touches a row once).
        string json = System.Text.Json.JsonSerializer.Serialize(maybeSent.Select(n => new { id = n.Id, attempts = n.Attempts, reason = n.StoredReason }));
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(new CommandDefinition(RecordMaybeSentSql, new { MaybeSent = json }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task RecordFailedAttemptsAsync(IReadOnlyCollection<FailedAttempt> failed, CancellationToken cancellationToken)
    {
        // [{"id":1,"attempt":1,"reason":"...","traceId":null},...]: OPENJSON reads it into rows.
        string json = System.Text.Json.JsonSerializer.Serialize(failed.Select(f => new { id = f.Id, attempt = f.Attempt, reason = f.StoredReason, traceId = f.TraceId }));
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(new CommandDefinition(RecordFailedSql, new { Failed = json }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    private async Task<IEnumerable<long>> QueryAsync(string sql, IReadOnlyCollection<long> ids, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.QueryAsync<long>(Command(sql, ids, cancellationToken));
    }

    private async Task ExecuteAsync(string sql, IReadOnlyCollection<long> ids, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(Command(sql, ids, cancellationToken));
    }

    private CommandDefinition Command(string sql, IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        new(sql, new { Ids = "[" + string.Join(',', ids) + "]" }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
