using System.Data.Common;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The outbox on SQL Server.</summary>
internal sealed class SqlServerOutboxStore : IOutboxStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerOutboxStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // READPAST skips rows another producer holds, ROWLOCK keeps the locks at row level, UPDLOCK makes
        // the read a locking one even where READ_COMMITTED_SNAPSHOT is on (so READPAST has locks to skip),
        // and the ordered CTE makes the batch the oldest rows (a bare DELETE TOP (n) takes any n rows).
        // Two claims per priority, each matching one filtered index of db/sqlserver/008 (the predicate
        // repeats the index's filter literally, so the optimizer can match it): the rows without not_before
        // through IX_outbox_claim (priority, id) WHERE not_before IS NULL, and the due scheduled rows
        // through IX_outbox_scheduled (priority, not_before, id) WHERE not_before IS NOT NULL.
        ClaimSql = ClaimStatement(s, "not_before IS NULL", "id");
        ClaimDueSql = ClaimStatement(s, "not_before IS NOT NULL AND not_before <= SYSDATETIMEOFFSET()", "not_before, id");
        RejectSql = $"""
            MERGE [{s}].[rejected] WITH (HOLDLOCK) AS t
            USING (SELECT @Id AS id) AS src ON t.id = src.id
            WHEN MATCHED THEN UPDATE SET reason = @Reason, rejected_at = SYSUTCDATETIME()
            WHEN NOT MATCHED THEN INSERT (id, recipient, subject, body, created_at, reason)
                VALUES (@Id, @Recipient, @Subject, @Body, @CreatedAt, @Reason);
            """;
        CountSql = $"SELECT COUNT_BIG(*) FROM [{s}].[outbox];";
        // Each priority counted on its own, stopping at the cap (TOP in a derived table): never a full read of a large backlog.
        // [Bulk]: BULK is a reserved word in T-SQL.
        CountByPrioritySql = $"""
            SELECT (SELECT COUNT_BIG(*) FROM (SELECT TOP (@Cap) 1 AS x FROM [{s}].[outbox] WHERE priority = 'urgent') AS u) AS Urgent,
                   (SELECT COUNT_BIG(*) FROM (SELECT TOP (@Cap) 1 AS x FROM [{s}].[outbox] WHERE priority = 'normal') AS n) AS Normal,
                   (SELECT COUNT_BIG(*) FROM (SELECT TOP (@Cap) 1 AS x FROM [{s}].[outbox] WHERE priority = 'bulk') AS b) AS [Bulk];
            """;
        StartFanOutSql = $"""
            INSERT INTO [{s}].[fanout_job] (id, audience, channels, category, parent)
            SELECT @Id, @Audience, @Channels, @Category, @Parent
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[fanout_job] WHERE id = @Id);
            """;
    }

    internal string ClaimSql { get; }

    internal string ClaimDueSql { get; }

    internal string RejectSql { get; }

    internal string CountSql { get; }

    internal string CountByPrioritySql { get; }

    internal string StartFanOutSql { get; }

    public async Task<OutboxClaim> ClaimAsync(
        IReadOnlyList<NotificationPriority> priorities, int batchSize, CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(_connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            var transaction = await connection.BeginTransactionAsync(cancellationToken);
            // The parameter is varchar like the column (IsAnsi): an nvarchar one would convert the column and could
            // turn the index seek into a scan.
            var rows = await ClaimOrder.ClaimAsync(priorities, batchSize, ClaimDueSql, ClaimSql, (sql, priority, limit) =>
                connection.QueryAsync<OutboxRow>(new CommandDefinition(
                    sql, new { Priority = new DbString { Value = priority.ToColumn(), IsAnsi = true, Length = 6 }, BatchSize = limit },
                    transaction, _timeoutSeconds, cancellationToken: cancellationToken)));
            return new OutboxClaim(connection, transaction, rows, RejectAsync, StartFanOutsAsync);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<long>(
            new CommandDefinition(CountSql, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<OutboxBacklog> CountByPriorityAsync(long cap, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var counts = await connection.QuerySingleAsync<(long Urgent, long Normal, long Bulk)>(
            new CommandDefinition(CountByPrioritySql, new { Cap = cap }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return new OutboxBacklog(counts.Urgent, counts.Normal, counts.Bulk, cap);
    }

    private Task RejectAsync(DbTransaction transaction, IReadOnlyList<(OutboxRow Row, string Reason)> rejects, CancellationToken cancellationToken)
    {
        // Rejects are rare (a row the broker cannot take); one statement per row is fine.
        var parameters = rejects.Select(r => new
        {
            r.Row.Id, r.Row.Recipient, r.Row.Subject, r.Row.Body, r.Row.CreatedAt, r.Reason,
        });
        return transaction.Connection!.ExecuteAsync(new CommandDefinition(
            RejectSql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
    }

    // Audience rows are rare next to the rest: a statement each.
    private Task StartFanOutsAsync(DbTransaction transaction, IReadOnlyList<FanOut.FanOutJob> jobs, CancellationToken cancellationToken) =>
        transaction.Connection!.ExecuteAsync(new CommandDefinition(
            StartFanOutSql, jobs.Select(FanOut.FanOutParentJson.InsertParameters), transaction, _timeoutSeconds, cancellationToken: cancellationToken));

    /// <summary>One claim: delete up to @BatchSize rows of @Priority matching <paramref name="due"/>, in <paramref name="order"/>.</summary>
    private static string ClaimStatement(string s, string due, string order) => $"""
        WITH batch AS (
            SELECT TOP (@BatchSize) id, recipient, subject, body, is_html, created_at, expires_at, traceparent, priority, not_before,
                reply_to, cc, bcc, headers, template_name, template_data, locale, channel, data, html_body, attachment_count, from_name, category, channels
            FROM [{s}].[outbox] WITH (ROWLOCK, READPAST, UPDLOCK)
            WHERE priority = @Priority AND {due}
            ORDER BY {order})
        DELETE FROM batch
        OUTPUT DELETED.id AS Id, DELETED.recipient AS Recipient, DELETED.subject AS Subject,
               DELETED.body AS Body, DELETED.is_html AS IsHtml, DELETED.created_at AS CreatedAt,
               DELETED.expires_at AS ExpiresAt, DELETED.traceparent AS TraceParent, DELETED.priority AS Priority,
               DELETED.not_before AS NotBefore, DELETED.reply_to AS ReplyTo, DELETED.cc AS Cc, DELETED.bcc AS Bcc,
               DELETED.headers AS Headers,
               DELETED.template_name AS TemplateName, DELETED.template_data AS TemplateData, DELETED.locale AS Locale,
               DELETED.channel AS Channel, DELETED.data AS Data, DELETED.html_body AS HtmlBody,
               DELETED.attachment_count AS AttachmentCount, DELETED.from_name AS FromName,
               DELETED.category AS Category, DELETED.channels AS Channels;
        """;
}
