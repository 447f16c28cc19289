using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>Operators' queries on SQL Server.</summary>
internal sealed class SqlServerOperationsStore : IOperationsStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerOperationsStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // Latency by the database's clock at both ends: created_at (the insert) to updated_at (the 'sent' record).
        WindowSql = $"""
            SELECT COUNT_BIG(*) AS Delivered,
                   COUNT_BIG(CASE WHEN DATEDIFF_BIG(millisecond, created_at, updated_at) <= @FastMilliseconds THEN 1 END) AS WithinFast,
                   COUNT_BIG(CASE WHEN DATEDIFF_BIG(millisecond, created_at, updated_at) <= @SloMilliseconds THEN 1 END) AS WithinSlo,
                   COUNT_BIG(CASE WHEN updated_at >= DATEADD(minute, -1, SYSDATETIMEOFFSET()) THEN 1 END) AS LastMinute
            FROM [{s}].[delivery_log]
            WHERE status = 'sent' AND created_at IS NOT NULL
              AND updated_at >= DATEADD(second, -@WindowSeconds, SYSDATETIMEOFFSET());
            """;
        // A purged row's attached files go with it (they are only ever read for a row that was claimed).
        PurgeSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            DECLARE @gone TABLE (notification_id bigint NOT NULL);
            BEGIN TRANSACTION;
            DELETE FROM [{s}].[outbox]
            OUTPUT DELETED.id INTO @gone;
            DELETE a FROM [{s}].[attachment] AS a
            WHERE a.notification_id IN (SELECT notification_id FROM @gone);
            COMMIT TRANSACTION;
            SELECT COUNT_BIG(*) FROM @gone;
            """;
        // One row a limit (the relay and each limited domain): a few, read by the primary key's order.
        RateLimitsSql = $"""
            SELECT TOP (@Limit) name AS Name, slow_factor AS SlowFactor, slow_until_us AS SlowUntilUs, tat_us AS TatUs,
                   DATEDIFF_BIG(microsecond, CAST('1970-01-01' AS datetime2(7)), SYSUTCDATETIME()) AS NowUs, interval_us AS IntervalUs
            FROM [{s}].[rate_limit] ORDER BY name;
            """;
    }

    internal string WindowSql { get; }

    internal string PurgeSql { get; }

    internal string RateLimitsSql { get; }

    public async Task<DeliveryWindow> GetDeliveryWindowAsync(TimeSpan window, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var counts = await connection.QuerySingleAsync<(long Delivered, long WithinFast, long WithinSlo, long LastMinute)>(new CommandDefinition(
            WindowSql,
            new
            {
                WindowSeconds = (int)window.TotalSeconds,
                FastMilliseconds = (long)DeliveryWindow.FastThreshold.TotalMilliseconds,
                SloMilliseconds = (long)DeliveryWindow.SloThreshold.TotalMilliseconds,
            },
            commandTimeout: _timeoutSeconds,
            cancellationToken: cancellationToken));
        return new DeliveryWindow(window, counts.Delivered, counts.WithinFast, counts.WithinSlo, counts.LastMinute);
    }

    public async Task<IReadOnlyList<RateLimitState>> ListRateLimitsAsync(int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<(string Name, double SlowFactor, long SlowUntilUs, long TatUs, long NowUs, long? IntervalUs)>(
            new CommandDefinition(RateLimitsSql, new { Limit = limit }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return rows.Select(r => RateLimitState.FromRow(r.Name, r.SlowFactor, r.SlowUntilUs, r.TatUs, r.NowUs, r.IntervalUs)).ToList();
    }

    public async Task<long> PurgeOutboxAsync(CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<long>(new CommandDefinition(PurgeSql, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }
}
