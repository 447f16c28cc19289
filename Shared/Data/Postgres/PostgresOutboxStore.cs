using System.Collections.Concurrent;
using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The outbox on PostgreSQL.</summary>
internal sealed class PostgresOutboxStore : IOutboxStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _schema;
    private readonly ConcurrentDictionary<int, string> _claimSql = new();
    private readonly string _rejectSql;
    private readonly string _countSql;
    private readonly string _countByPrioritySql;
    private readonly string _startFanOutSql;

    public PostgresOutboxStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        _schema = s;
        _rejectSql = $"""
            INSERT INTO "{s}".rejected (id, recipient, subject, body, created_at, reason)
            SELECT * FROM unnest(@Ids, @Recipients, @Subjects, @Bodies, @CreatedAts, @Reasons)
            ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason, rejected_at = now()
            """;
        _countSql = $"""SELECT count(*) FROM "{s}".outbox""";
        // Each priority counted on its own, stopping at the cap (LIMIT in a subquery): never a full read of a large backlog.
        _countByPrioritySql = $"""
            SELECT (SELECT count(*) FROM (SELECT 1 FROM "{s}".outbox WHERE priority = 'urgent' LIMIT @Cap) AS u) AS Urgent,
                   (SELECT count(*) FROM (SELECT 1 FROM "{s}".outbox WHERE priority = 'normal' LIMIT @Cap) AS n) AS Normal,
                   (SELECT count(*) FROM (SELECT 1 FROM "{s}".outbox WHERE priority = 'bulk' LIMIT @Cap) AS b) AS Bulk
            """;
        _startFanOutSql = $"""
            INSERT INTO "{s}".fanout_job (id, audience, channels, category, parent)
            SELECT * FROM unnest(@Ids, @Audiences, @Channels, @Categories, @Parents)
            ON CONFLICT (id) DO NOTHING
            """;
    }

    public async Task<OutboxClaim> ClaimAsync(
        IReadOnlyList<NotificationPriority> priorities, int batchSize, CancellationToken cancellationToken)
    {
        var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        try
        {
            var transaction = await connection.BeginTransactionAsync(cancellationToken);
            string sql = _claimSql.GetOrAdd(LaneKey(priorities), _ => ClaimStatement(_schema, priorities));
            var rows = await connection.QueryAsync<OutboxRow>(new CommandDefinition(
                sql, new { BatchSize = batchSize }, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
            return new OutboxClaim(connection, transaction, ClaimOrder.Sort(rows, priorities), RejectAsync, StartFanOutsAsync);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<long>(
            new CommandDefinition(_countSql, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<OutboxBacklog> CountByPriorityAsync(long cap, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var counts = await connection.QuerySingleAsync<(long Urgent, long Normal, long Bulk)>(
            new CommandDefinition(_countByPrioritySql, new { Cap = cap }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return new OutboxBacklog(counts.Urgent, counts.Normal, counts.Bulk, cap);
    }

    private Task RejectAsync(
        System.Data.Common.DbTransaction transaction,
        IReadOnlyList<(OutboxRow Row, string Reason)> rejects,
        CancellationToken cancellationToken)
    {
        var parameters = new
        {
            Ids = rejects.Select(r => r.Row.Id).ToArray(),
            Recipients = rejects.Select(r => r.Row.Recipient).ToArray(),
            Subjects = rejects.Select(r => r.Row.Subject).ToArray(),
            Bodies = rejects.Select(r => r.Row.Body).ToArray(),
            CreatedAts = rejects.Select(r => r.Row.CreatedAt).ToArray(),
            Reasons = rejects.Select(r => r.Reason).ToArray(),
        };
        return transaction.Connection!.ExecuteAsync(new CommandDefinition(
            _rejectSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
    }

    // The claim's jobs in one statement: a round trip of the claim's, not one a job.
    private Task StartFanOutsAsync(System.Data.Common.DbTransaction transaction, IReadOnlyList<FanOut.FanOutJob> jobs, CancellationToken cancellationToken)
    {
        var parameters = new
        {
            Ids = jobs.Select(j => j.Id).ToArray(),
            Audiences = jobs.Select(j => j.Audience).ToArray(),
            Channels = jobs.Select(j => j.Channels).ToArray(),
            Categories = jobs.Select(j => j.Category).ToArray(),
            Parents = jobs.Select(j => FanOut.FanOutParentJson.Serialize(j.Parent)).ToArray(),
        };
        return transaction.Connection!.ExecuteAsync(new CommandDefinition(
            _startFanOutSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
    }

    // A lane's statement is made once, under its priorities in order (each 1 + its value, base 4): no string built a claim.
    private static int LaneKey(IReadOnlyList<NotificationPriority> priorities)
    {
        int key = 0;
        for (int i = 0; i < priorities.Count; i++)
        {
            key = (key * 4) + (int)priorities[i] + 1;
        }

        return key;
    }

    /// <summary>
    /// The claim of a lane, one statement (a round trip, not two a priority): up to @BatchSize rows, in the order of
    /// <see cref="ClaimOrder"/>. SKIP LOCKED lets several producers claim disjoint batches without waiting on each other. Two
    /// ranges per priority, each on its own partial index (db/postgres/008): the scheduled rows that are due, through
    /// outbox_scheduled (priority, not_before) WHERE not_before IS NOT NULL, then the rows without not_before, oldest first,
    /// through outbox_claim (priority, id) WHERE not_before IS NULL. A row scheduled for later is in neither range: a million
    /// of them cost the claim one index page. now() is the transaction's start (stable, so usable as an index bound;
    /// clock_timestamp() would not be). The ranges are appended in that order under one LIMIT, which stops reading (and
    /// locking) at @BatchSize rows: a later range is not looked at once the earlier ones filled the batch. The priorities are
    /// the enum's own column values, written into the statement (one statement a lane, planned with its literals). As
    /// before, a rescanned sub-select may return a few rows more than @BatchSize; they are deleted, and claimed.
    /// </summary>
    private static string ClaimStatement(string s, IReadOnlyList<NotificationPriority> priorities)
    {
        var ranges = priorities.SelectMany(p => (string[])[
            Range(s, p, "not_before IS NOT NULL AND not_before <= now()", "not_before, id"),
            Range(s, p, "not_before IS NULL", "id")]);
        return $"""
            DELETE FROM "{s}".outbox
            WHERE id IN (SELECT id FROM ({string.Join("\n    UNION ALL\n", ranges)}) AS claimable LIMIT @BatchSize)
            RETURNING id AS Id, recipient AS Recipient, subject AS Subject, body AS Body, is_html AS IsHtml,
                      created_at AS CreatedAt, expires_at AS ExpiresAt, traceparent AS TraceParent, priority AS Priority,
                      not_before AS NotBefore, reply_to AS ReplyTo, cc AS Cc, bcc AS Bcc, headers AS Headers,
                      template_name AS TemplateName, template_data AS TemplateData, locale AS Locale,
                      channel AS Channel, data AS Data, html_body AS HtmlBody, attachment_count AS AttachmentCount,
                      from_name AS FromName, category AS Category, channels AS Channels
            """;
    }

    // One range of a claim: a sub-select of its own, since FOR UPDATE is not allowed on a UNION's arm itself.
    private static string Range(string s, NotificationPriority priority, string due, string order) =>
        $"""SELECT id FROM (SELECT id FROM "{s}".outbox WHERE priority = '{priority.ToColumn()}' AND {due} ORDER BY {order} LIMIT @BatchSize FOR UPDATE SKIP LOCKED) AS r""";
}
