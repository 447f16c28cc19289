using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>
/// The retention cleanup on SQL Server: each batch is one <c>DELETE TOP (n)</c> with <c>ROWLOCK, READPAST</c>
/// (a row a consumer holds is skipped, never waited for), small enough to stay below lock escalation.
/// </summary>
internal sealed class SqlServerRetentionStore : IRetentionStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerRetentionStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        LeaseSql = $"""
            UPDATE [{s}].[retention]
            SET lease_until = DATEADD(millisecond, @LeaseMilliseconds, SYSDATETIMEOFFSET()), holder = @Holder
            OUTPUT INSERTED.job
            WHERE job = 'cleanup' AND lease_until <= SYSDATETIMEOFFSET();
            """;
        // No index on delivery_log.updated_at (it would cost every send an index write): the scan stops after
        // @BatchSize matches. The watermark is the outbox's ids' only, as PostgreSQL's (a fan-out delivery's id is 2^62 up).
        DeleteDeliveryLogSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            DECLARE @gone TABLE (notification_id bigint NULL);
            BEGIN TRANSACTION;
            DELETE TOP (@BatchSize) FROM [{s}].[delivery_log] WITH (ROWLOCK, READPAST)
            OUTPUT DELETED.notification_id INTO @gone
            WHERE status IN ('sent', 'suppressed', 'opted_out', 'live_acked') AND updated_at < @Cutoff;
            {DeleteAttachments(s)}
            DELETE o FROM [{s}].[notification_outcome] AS o WITH (ROWLOCK)
            WHERE o.notification_id IN (SELECT notification_id FROM @gone);
            COMMIT TRANSACTION;
            SELECT CAST(COUNT(*) AS int) AS Deleted, MAX(CASE WHEN notification_id < {FanOut.FanOutIds.First} THEN notification_id END) AS MaxNotificationId FROM @gone;
            """;
        DeleteDeadLettersSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            DECLARE @gone TABLE (notification_id bigint NULL);
            BEGIN TRANSACTION;
            DELETE TOP (@BatchSize) FROM [{s}].[dead_letter] WITH (ROWLOCK, READPAST)
            OUTPUT DELETED.notification_id INTO @gone
            WHERE dead_lettered_at < @Cutoff;
            {DeleteAttachments(s)}
            COMMIT TRANSACTION;
            SELECT CAST(COUNT(*) AS int) AS Deleted, MAX(CASE WHEN notification_id < {FanOut.FanOutIds.First} THEN notification_id END) AS MaxNotificationId FROM @gone;
            """;
        DeleteIdempotencyKeysSql = $"""
            DELETE TOP (@BatchSize) FROM [{s}].[idempotency_key] WITH (ROWLOCK, READPAST)
            WHERE created_at < @Cutoff;
            SELECT CAST(@@ROWCOUNT AS int) AS Deleted, CAST(NULL AS bigint) AS MaxNotificationId;
            """;
        // A finished fan-out's deliveries first, a batch at a time; its job once none is left (the cascade then finds nothing).
        DeleteFanOutDeliveriesSql = $"""
            DELETE TOP (@BatchSize) d FROM [{s}].[audience_delivery] AS d WITH (ROWLOCK, READPAST)
            JOIN [{s}].[fanout_job] AS j ON j.id = d.parent_id
            WHERE j.state <> 'running' AND j.finished_at < @Cutoff;
            SELECT CAST(@@ROWCOUNT AS int) AS Deleted, CAST(NULL AS bigint) AS MaxNotificationId;
            """;
        DeleteFanOutJobsSql = $"""
            SET NOCOUNT ON;
            DECLARE @gone TABLE (notification_id bigint NOT NULL);
            DELETE TOP (@BatchSize) j
            OUTPUT DELETED.id INTO @gone
            FROM [{s}].[fanout_job] AS j WITH (ROWLOCK, READPAST)
            WHERE j.state <> 'running' AND j.finished_at < @Cutoff
                AND NOT EXISTS (SELECT 1 FROM [{s}].[audience_delivery] AS d WHERE d.parent_id = j.id);
            SELECT CAST(COUNT(*) AS int) AS Deleted, MAX(CASE WHEN notification_id < {FanOut.FanOutIds.First} THEN notification_id END) AS MaxNotificationId FROM @gone;
            """;
        // A live notification's pending row is not its record (the delivery log's is): no watermark.
        // Expired broadcasts too (042; their receipts go with them), a batch of each.
        DeleteExpiredLiveSql = $"""
            DECLARE @deleted int;
            DELETE TOP (@BatchSize) FROM [{s}].[live_pending] WITH (ROWLOCK, READPAST)
            WHERE expires_at < @Cutoff;
            SET @deleted = @@ROWCOUNT;
            DELETE TOP (@BatchSize) FROM [{s}].[live_broadcast] WITH (ROWLOCK, READPAST)
            WHERE expires_at < @Cutoff;
            SELECT CAST(@deleted + @@ROWCOUNT AS int) AS Deleted, CAST(NULL AS bigint) AS MaxNotificationId;
            """;
        // An outcome event's row: nothing updates it, no watermark (IX_outcome_event_created_at).
        DeleteOutcomeEventsSql = $"""
            DELETE TOP (@BatchSize) FROM [{s}].[outcome_event] WITH (ROWLOCK, READPAST)
            WHERE created_at < @Cutoff;
            SELECT CAST(@@ROWCOUNT AS int) AS Deleted, CAST(NULL AS bigint) AS MaxNotificationId;
            """;
        RecordRunSql = $"""
            UPDATE [{s}].[retention]
            SET last_run_at = SYSDATETIMEOFFSET(),
                max_deleted_id = CASE WHEN max_deleted_id IS NULL OR @MaxDeletedId > max_deleted_id THEN COALESCE(@MaxDeletedId, max_deleted_id)
                                      ELSE max_deleted_id END
            WHERE job = 'cleanup';
            """;
    }

    internal string LeaseSql { get; }

    // A notification's attached files and failed attempts go with its last record (sent, suppressed or dead-lettered), in the
    // same transaction.
    private static string DeleteAttachments(string s) => $"""
        DELETE a FROM [{s}].[attachment] AS a WITH (ROWLOCK)
        WHERE a.notification_id IN (SELECT notification_id FROM @gone);
        DELETE f FROM [{s}].[delivery_attempt] AS f WITH (ROWLOCK)
        WHERE f.notification_id IN (SELECT notification_id FROM @gone);
        """;

    internal string DeleteDeliveryLogSql { get; }

    internal string DeleteDeadLettersSql { get; }

    internal string DeleteIdempotencyKeysSql { get; }

    internal string DeleteFanOutDeliveriesSql { get; }

    internal string DeleteFanOutJobsSql { get; }

    internal string DeleteExpiredLiveSql { get; }

    internal string DeleteOutcomeEventsSql { get; }

    internal string RecordRunSql { get; }

    public async Task<bool> TryLeaseAsync(string holder, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var taken = await connection.QueryFirstOrDefaultAsync<string>(
            Command(LeaseSql, new { LeaseMilliseconds = (int)Math.Min(lease.TotalMilliseconds, int.MaxValue), Holder = holder }, cancellationToken));
        return taken is not null;
    }

    public Task<RetentionBatch> DeleteDeliveryLogAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteDeliveryLogSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteDeadLettersAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteDeadLettersSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteIdempotencyKeysAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteIdempotencyKeysSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteFanOutDeliveriesAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteFanOutDeliveriesSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteFanOutJobsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteFanOutJobsSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteExpiredLiveAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteExpiredLiveSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteOutcomeEventsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(DeleteOutcomeEventsSql, cutoff, batchSize, cancellationToken);

    public async Task RecordRunAsync(long? maxDeletedId, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(Command(RecordRunSql, new { MaxDeletedId = maxDeletedId }, cancellationToken));
    }

    private async Task<RetentionBatch> DeleteAsync(string sql, DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var (deleted, max) = await connection.QuerySingleAsync<(int, long?)>(
            Command(sql, new { Cutoff = cutoff, BatchSize = batchSize }, cancellationToken));
        return new RetentionBatch(deleted, max);
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
