using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>
/// The retention cleanup on PostgreSQL: each batch picks its rows with <c>FOR UPDATE SKIP LOCKED</c> (a row a
/// consumer is writing is left for the next run) and deletes them in the same statement, one short transaction.
/// </summary>
internal sealed class PostgresRetentionStore : IRetentionStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _leaseSql;
    private readonly string _deleteLogSql;
    private readonly string _deleteDeadSql;
    private readonly string _recordRunSql;
    private readonly string _deleteKeysSql;
    private readonly string _deleteFanOutDeliveriesSql;
    private readonly string _deleteFanOutJobsSql;
    private readonly string _deleteExpiredLiveSql;
    private readonly string _deleteOutcomeEventsSql;

    public PostgresRetentionStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        _leaseSql = $"""
            UPDATE "{s}".retention SET lease_until = now() + make_interval(secs => @LeaseSeconds), holder = @Holder
            WHERE job = 'cleanup' AND lease_until <= now()
            RETURNING job
            """;
        // No index on delivery_log.updated_at (it would cost every send an index write): the scan stops after
        // @BatchSize matches, and the oldest rows sit first in the heap. The watermark (MaxNotificationId, the status's "removed
        // by the retention cleanup") is the outbox's ids' only: a fan-out delivery's id (2^62 up, FanOutIds) would put it
        // above every outbox id.
        _deleteLogSql = $"""
            WITH doomed AS (
                SELECT notification_id FROM "{s}".delivery_log
                WHERE status IN ('sent', 'suppressed', 'opted_out', 'live_acked') AND updated_at < @Cutoff
                LIMIT @BatchSize FOR UPDATE SKIP LOCKED),
            gone AS (
                DELETE FROM "{s}".delivery_log AS d USING doomed
                WHERE d.notification_id = doomed.notification_id
                RETURNING d.notification_id),
            {DeleteAttachments(s)},
            outcomes AS (
                DELETE FROM "{s}".notification_outcome AS o USING gone
                WHERE o.notification_id = gone.notification_id)
            SELECT count(*)::int AS Deleted, max(notification_id) FILTER (WHERE notification_id < {FanOut.FanOutIds.First}) AS MaxNotificationId FROM gone
            """;
        _deleteDeadSql = DeleteOldestSql(s, "dead_letter", key: "id", age: "dead_lettered_at", notificationId: "x.notification_id", attachments: true);
        // A key is not a notification's record: it raises no watermark.
        _deleteKeysSql = DeleteOldestSql(s, "idempotency_key", key: "idempotency_key", age: "created_at", notificationId: "NULL::bigint");
        // Nor is a live notification's pending row (its delivery log's record stays): no watermark either. No row locks (they
        // would need UPDATE): an expired row is written by nobody but the gateway's expiry sweep just after it expired, and an app's
        // ack of one at the same moment is one waiting DELETE.
        // Expired pending rows and expired broadcasts (042; their receipts go with them), a batch of each.
        _deleteExpiredLiveSql = $"""
            WITH doomed AS (
                SELECT notification_id FROM "{s}".live_pending WHERE expires_at < @Cutoff ORDER BY expires_at LIMIT @BatchSize),
            gone AS (
                DELETE FROM "{s}".live_pending AS x USING doomed WHERE x.notification_id = doomed.notification_id RETURNING x.notification_id),
            doomed_broadcasts AS (
                SELECT notification_id FROM "{s}".live_broadcast WHERE expires_at < @Cutoff ORDER BY expires_at LIMIT @BatchSize),
            gone_broadcasts AS (
                DELETE FROM "{s}".live_broadcast AS x USING doomed_broadcasts WHERE x.notification_id = doomed_broadcasts.notification_id
                RETURNING x.notification_id)
            SELECT ((SELECT count(*) FROM gone) + (SELECT count(*) FROM gone_broadcasts))::int AS Deleted, NULL::bigint AS MaxNotificationId
            """;
        // An outcome event's row: no row locks either (nothing updates it; a consumer's insert of the same key at the same moment
        // finds it or not, and makes the event or not, as it would have the day before), no watermark; outcome_event_created_at.
        _deleteOutcomeEventsSql = DeleteOldestUnlockedSql(s, "outcome_event", key: "event_id", age: "created_at");
        // A finished fan-out's deliveries first, a batch at a time; its job once none is left (the cascade then finds nothing).
        // Nothing else writes a finished job or its deliveries (the producer's stage leases running ones only): no row locks.
        _deleteFanOutDeliveriesSql = $"""
            WITH doomed AS (
                SELECT d.id FROM "{s}".audience_delivery AS d
                JOIN "{s}".fanout_job AS j ON j.id = d.parent_id
                WHERE j.state <> 'running' AND j.finished_at < @Cutoff
                LIMIT @BatchSize),
            gone AS (
                DELETE FROM "{s}".audience_delivery AS x USING doomed
                WHERE x.id = doomed.id
                RETURNING x.id)
            SELECT count(*)::int AS Deleted, NULL::bigint AS MaxNotificationId FROM gone
            """;
        _deleteFanOutJobsSql = $"""
            WITH doomed AS (
                SELECT j.id FROM "{s}".fanout_job AS j
                WHERE j.state <> 'running' AND j.finished_at < @Cutoff
                    AND NOT EXISTS (SELECT 1 FROM "{s}".audience_delivery AS d WHERE d.parent_id = j.id)
                ORDER BY j.finished_at
                LIMIT @BatchSize),
            gone AS (
                DELETE FROM "{s}".fanout_job AS x USING doomed
                WHERE x.id = doomed.id
                RETURNING x.id AS notification_id)
            SELECT count(*)::int AS Deleted, max(notification_id) FILTER (WHERE notification_id < {FanOut.FanOutIds.First}) AS MaxNotificationId FROM gone
            """;
        _recordRunSql = $"""
            UPDATE "{s}".retention
            SET last_run_at = now(), max_deleted_id = GREATEST(max_deleted_id, @MaxDeletedId)
            WHERE job = 'cleanup'
            """;
    }

    public async Task<bool> TryLeaseAsync(string holder, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var taken = await connection.QueryFirstOrDefaultAsync<string>(Command(_leaseSql, new { LeaseSeconds = lease.TotalSeconds, Holder = holder }, cancellationToken));
        return taken is not null;
    }

    public Task<RetentionBatch> DeleteDeliveryLogAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteLogSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteDeadLettersAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteDeadSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteIdempotencyKeysAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteKeysSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteFanOutDeliveriesAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteFanOutDeliveriesSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteFanOutJobsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteFanOutJobsSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteExpiredLiveAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteExpiredLiveSql, cutoff, batchSize, cancellationToken);

    public Task<RetentionBatch> DeleteOutcomeEventsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken) =>
        DeleteAsync(_deleteOutcomeEventsSql, cutoff, batchSize, cancellationToken);

    public async Task RecordRunAsync(long? maxDeletedId, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(Command(_recordRunSql, new { MaxDeletedId = maxDeletedId }, cancellationToken));
    }

    // The oldest rows first, a batch at a time, leaving rows another transaction holds for the next run.
    private static string DeleteOldestSql(string schema, string table, string key, string age, string notificationId, bool attachments = false) => $"""
        WITH doomed AS (
            SELECT {key} FROM "{schema}".{table}
            WHERE {age} < @Cutoff
            ORDER BY {age}
            LIMIT @BatchSize FOR UPDATE SKIP LOCKED),
        gone AS (
            DELETE FROM "{schema}".{table} AS x USING doomed
            WHERE x.{key} = doomed.{key}
            RETURNING {notificationId} AS notification_id){(attachments ? "," + DeleteAttachments(schema) : "")}
        SELECT count(*)::int AS Deleted, max(notification_id) FILTER (WHERE notification_id < {FanOut.FanOutIds.First}) AS MaxNotificationId FROM gone
        """;

    // The oldest rows first, a batch at a time, without row locks (rows nobody writes any more by then; locking them would need
    // UPDATE, which the cleaning roles lack) and without a watermark (not a notification's record).
    private static string DeleteOldestUnlockedSql(string schema, string table, string key, string age) => $"""
        WITH doomed AS (
            SELECT {key} FROM "{schema}".{table}
            WHERE {age} < @Cutoff
            ORDER BY {age}
            LIMIT @BatchSize),
        gone AS (
            DELETE FROM "{schema}".{table} AS x USING doomed
            WHERE x.{key} = doomed.{key}
            RETURNING x.{key})
        SELECT count(*)::int AS Deleted, NULL::bigint AS MaxNotificationId FROM gone
        """;

    // A notification's attached files and failed attempts go with its last record (sent, suppressed or dead-lettered), in the
    // same statement.
    private static string DeleteAttachments(string schema) => $"""
        files AS (
            DELETE FROM "{schema}".attachment AS a USING gone
            WHERE a.notification_id = gone.notification_id),
        attempts AS (
            DELETE FROM "{schema}".delivery_attempt AS f USING gone
            WHERE f.notification_id = gone.notification_id)
        """;

    private async Task<RetentionBatch> DeleteAsync(string sql, DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var (deleted, max) = await connection.QuerySingleAsync<(int, long?)>(
            Command(sql, new { Cutoff = cutoff.UtcDateTime, BatchSize = batchSize }, cancellationToken));
        return new RetentionBatch(deleted, max);
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
