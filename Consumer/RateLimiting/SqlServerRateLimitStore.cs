using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.RateLimiting;

/// <summary>The GCRA rows on SQL Server: one MERGE WITH (HOLDLOCK) per lease, the key lock orders concurrent consumers.</summary>
internal sealed class SqlServerRateLimitStore : IRateLimitStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerRateLimitStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        const string now = "DECLARE @now bigint = DATEDIFF_BIG(microsecond, CAST('1970-01-01' AS datetime2(7)), SYSUTCDATETIME());";
        LeaseSql = $"""
            {now}
            MERGE [{s}].[rate_limit] WITH (HOLDLOCK) AS r
            USING (SELECT @Key AS name) AS src ON r.name = src.name
            WHEN MATCHED THEN UPDATE SET tat_us =
                (CASE WHEN r.tat_us > @now - @GraceUs THEN r.tat_us ELSE @now - @GraceUs END)
                + @Count * (CASE WHEN r.slow_until_us > @now THEN CAST(@IntervalUs * r.slow_factor AS bigint) ELSE @IntervalUs END),
                interval_us = @IntervalUs
            WHEN NOT MATCHED THEN INSERT (name, tat_us, interval_us) VALUES (@Key, @now + @Count * @IntervalUs, @IntervalUs)
            OUTPUT INSERTED.tat_us AS TatUs, @now AS NowUs,
                CASE WHEN INSERTED.slow_until_us > @now THEN CAST(@IntervalUs * INSERTED.slow_factor AS bigint) ELSE @IntervalUs END AS IntervalUs;
            """;
        SlowDownSql = $"""
            {now}
            DECLARE @first float = CASE WHEN @Factor < @MaxFactor THEN @Factor ELSE @MaxFactor END;
            MERGE [{s}].[rate_limit] WITH (HOLDLOCK) AS r
            USING (SELECT @Key AS name) AS src ON r.name = src.name
            WHEN MATCHED THEN UPDATE SET
                slow_factor = CASE
                    WHEN r.slow_until_us <= @now THEN @first
                    WHEN r.slow_changed_us <= @now - @SettleUs
                        THEN CASE WHEN r.slow_factor * @Factor < @MaxFactor THEN r.slow_factor * @Factor ELSE @MaxFactor END
                    ELSE r.slow_factor END,
                slow_changed_us = CASE
                    WHEN r.slow_until_us <= @now OR r.slow_changed_us <= @now - @SettleUs THEN @now ELSE r.slow_changed_us END,
                slow_until_us = @now + @HoldUs
            WHEN NOT MATCHED THEN INSERT (name, tat_us, slow_factor, slow_changed_us, slow_until_us)
                VALUES (@Key, @now, @first, @now, @now + @HoldUs)
            OUTPUT INSERTED.slow_factor;
            """;
        // One batch, one round trip, one transaction: the window's lock first (an application lock of its own, not the
        // rate_limit row, which the leases take), then the count and the entry under the lock (READCOMMITTEDLOCK: the committed
        // rows, also under READ_COMMITTED_SNAPSHOT), so whatever the consumer before this one let in is counted.
        EnterWindowSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @resource nvarchar(255) = N'{s}.rate_limit_send:' + CONVERT(nvarchar(64), HASHBYTES('SHA2_256', @Key), 2);
            EXEC sp_getapplock @Resource = @resource, @LockMode = 'Exclusive', @LockOwner = 'Transaction';
            {now}
            DELETE FROM [{s}].[rate_limit_send] WHERE name = @Key AND COALESCE(ended_us, ends_by_us) <= @now - 1000000;
            DECLARE @counted int, @oldest bigint, @id bigint = NULL;
            SELECT @counted = COUNT(*), @oldest = MIN(ended_us) FROM [{s}].[rate_limit_send] WITH (READCOMMITTEDLOCK)
            WHERE name = @Key AND COALESCE(ended_us, ends_by_us) > @now - 1000000;
            IF @counted < @Size
            BEGIN
                INSERT INTO [{s}].[rate_limit_send] (name, started_us, ends_by_us) VALUES (@Key, @now, @now + @EndsWithinUs);
                SET @id = SCOPE_IDENTITY();
            END;
            COMMIT TRANSACTION;
            SELECT @id AS Id,
                   CASE WHEN @oldest IS NULL THEN @RetryUs
                        WHEN @oldest + 1000000 - @now > 1000 THEN @oldest + 1000000 - @now ELSE 1000 END AS WaitUs;
            """;
        LeaveWindowSql = $"""
            UPDATE [{s}].[rate_limit_send]
            SET ended_us = DATEDIFF_BIG(microsecond, CAST('1970-01-01' AS datetime2(7)), SYSUTCDATETIME())
            WHERE id IN (SELECT CAST(value AS bigint) FROM OPENJSON(@Ids));
            """;
    }

    internal string LeaseSql { get; }

    internal string EnterWindowSql { get; }

    internal string LeaveWindowSql { get; }

    internal string SlowDownSql { get; }

    public async Task<Lease> LeaseAsync(string key, int count, TimeSpan interval, TimeSpan grace, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var row = await connection.QuerySingleAsync<LeaseRow>(new CommandDefinition(LeaseSql,
            new { Key = key, Count = (long)count, IntervalUs = PostgresRateLimitStore.Micros(interval), GraceUs = PostgresRateLimitStore.Micros(grace) },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return row.ToLease(count);
    }

    public async Task<WindowEntry> EnterWindowAsync(string key, int size, TimeSpan endsWithin, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var row = await connection.QuerySingleAsync<WindowRow>(new CommandDefinition(EnterWindowSql,
            new
            {
                Key = key, Size = size, EndsWithinUs = PostgresRateLimitStore.Micros(endsWithin),
                RetryUs = PostgresRateLimitStore.Micros(WindowRow.InFlightRetry),
            },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return row.ToEntry();
    }

    public async Task LeaveWindowAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(new CommandDefinition(LeaveWindowSql, new { Ids = System.Text.Json.JsonSerializer.Serialize(ids) },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<double> SlowDownAsync(string key, double factor, double maxFactor, TimeSpan settle, TimeSpan holdFor, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.QuerySingleAsync<double>(new CommandDefinition(SlowDownSql,
            new
            {
                Key = key, Factor = factor, MaxFactor = maxFactor,
                SettleUs = PostgresRateLimitStore.Micros(settle), HoldUs = PostgresRateLimitStore.Micros(holdFor),
            },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }
}
