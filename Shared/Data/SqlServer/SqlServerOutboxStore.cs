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
        ClaimSql = $"""
            WITH batch AS (
                SELECT TOP (@BatchSize) id, recipient, subject, body, is_html, created_at, expires_at, traceparent
                FROM [{s}].[outbox] WITH (ROWLOCK, READPAST, UPDLOCK)
                ORDER BY id)
            DELETE FROM batch
            OUTPUT DELETED.id AS Id, DELETED.recipient AS Recipient, DELETED.subject AS Subject,
                   DELETED.body AS Body, DELETED.is_html AS IsHtml, DELETED.created_at AS CreatedAt,
                   DELETED.expires_at AS ExpiresAt, DELETED.traceparent AS TraceParent;
            """;
        RejectSql = $"""
            MERGE [{s}].[rejected] WITH (HOLDLOCK) AS t
            USING (SELECT @Id AS id) AS src ON t.id = src.id
            WHEN MATCHED THEN UPDATE SET reason = @Reason, rejected_at = SYSUTCDATETIME()
            WHEN NOT MATCHED THEN INSERT (id, recipient, subject, body, created_at, reason)
                VALUES (@Id, @Recipient, @Subject, @Body, @CreatedAt, @Reason);
            """;
        CountSql = $"SELECT COUNT_BIG(*) FROM [{s}].[outbox];";
    }

    internal string ClaimSql { get; }

    internal string RejectSql { get; }

    internal string CountSql { get; }

    public async Task<OutboxClaim> ClaimAsync(int batchSize, CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(_connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            var transaction = await connection.BeginTransactionAsync(cancellationToken);
            var rows = await connection.QueryAsync<OutboxRow>(new CommandDefinition(
                ClaimSql, new { BatchSize = batchSize }, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
            // OUTPUT returns rows in no guaranteed order (a parallel or reordered plan may shuffle them),
            // and the claim promises oldest first.
            return new OutboxClaim(connection, transaction, rows.OrderBy(r => r.Id).ToList(), RejectAsync);
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
}
