using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Consumer.RateLimiting;

/// <summary>The GCRA rows on PostgreSQL: one upsert per lease, the row lock orders concurrent consumers.</summary>
internal sealed class PostgresRateLimitStore : IRateLimitStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;

    public PostgresRateLimitStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        const string now = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
        // The interval in force: longer by slow_factor until slow_until_us. The configured one is written on every lease
        // (interval_us): operators read the rate beside the row.
        const string interval = "CASE WHEN r.slow_until_us > c.now_us THEN (@IntervalUs * r.slow_factor)::bigint ELSE @IntervalUs END";
        LeaseSql = $"""
            WITH c AS (SELECT {now} AS now_us)
            INSERT INTO "{s}".rate_limit AS r (name, tat_us, interval_us)
            SELECT @Key, c.now_us + @Count * @IntervalUs, @IntervalUs FROM c
            ON CONFLICT (name) DO UPDATE
                SET tat_us = GREATEST(r.tat_us, (SELECT now_us FROM c) - @GraceUs)
                    + @Count * (SELECT {interval} FROM c),
                    interval_us = @IntervalUs
            RETURNING r.tat_us AS TatUs, (SELECT now_us FROM c) AS NowUs, (SELECT {interval} FROM c) AS IntervalUs
            """;
        SlowDownSql = $"""
            WITH c AS (SELECT {now} AS now_us)
            INSERT INTO "{s}".rate_limit AS r (name, tat_us, slow_factor, slow_changed_us, slow_until_us)
            SELECT @Key, c.now_us, LEAST(@Factor, @MaxFactor), c.now_us, c.now_us + @HoldUs FROM c
            ON CONFLICT (name) DO UPDATE
                SET slow_factor = CASE
                        WHEN r.slow_until_us <= (SELECT now_us FROM c) THEN LEAST(@Factor, @MaxFactor)
                        WHEN r.slow_changed_us <= (SELECT now_us FROM c) - @SettleUs THEN LEAST(r.slow_factor * @Factor, @MaxFactor)
                        ELSE r.slow_factor END,
                    slow_changed_us = CASE
                        WHEN r.slow_until_us <= (SELECT now_us FROM c) OR r.slow_changed_us <= (SELECT now_us FROM c) - @SettleUs
                        THEN (SELECT now_us FROM c) ELSE r.slow_changed_us END,
                    slow_until_us = (SELECT now_us FROM c) + @HoldUs
            RETURNING r.slow_factor
            """;
        // A batch, one round trip, one implicit transaction: the window's lock first (a transaction-scoped advisory lock of its
        // own, not the rate_limit row, which the leases take), then (a new snapshot, under the lock) the count and the entry, so
        // whatever the consumer before this one let in is counted. Commits without waiting for the WAL flush: the entries are a
        // pacing record, not data (after a crash of the database the window starts empty).
        EnterWindowSql = $"""
            SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(hashtextextended('{s}.rate_limit_send:' || @Key, 0));
            WITH c AS (SELECT {now} AS now_us),
            gone AS (
                DELETE FROM "{s}".rate_limit_send AS w USING c
                WHERE w.name = @Key AND COALESCE(w.ended_us, w.ends_by_us) <= c.now_us - 1000000),
            n AS (
                SELECT count(*) AS counted, min(w.ended_us) AS oldest_end FROM "{s}".rate_limit_send AS w, c
                WHERE w.name = @Key AND COALESCE(w.ended_us, w.ends_by_us) > c.now_us - 1000000),
            let_in AS (
                INSERT INTO "{s}".rate_limit_send (name, started_us, ends_by_us)
                SELECT @Key, c.now_us, c.now_us + @EndsWithinUs FROM c, n WHERE n.counted < @Size
                RETURNING id)
            SELECT (SELECT id FROM let_in) AS Id,
                   CASE WHEN n.oldest_end IS NULL THEN @RetryUs ELSE GREATEST(n.oldest_end + 1000000 - c.now_us, 1000) END AS WaitUs
            FROM c, n
            """;
        LeaveWindowSql = $"""
            SELECT set_config('synchronous_commit', 'off', true);
            UPDATE "{s}".rate_limit_send SET ended_us = {now} WHERE id = ANY(@Ids)
            """;
    }

    internal string LeaseSql { get; }

    internal string EnterWindowSql { get; }

    internal string LeaveWindowSql { get; }

    internal string SlowDownSql { get; }

    public async Task<Lease> LeaseAsync(string key, int count, TimeSpan interval, TimeSpan grace, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var row = await connection.QuerySingleAsync<LeaseRow>(new CommandDefinition(LeaseSql,
            new { Key = key, Count = (long)count, IntervalUs = Micros(interval), GraceUs = Micros(grace) },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return row.ToLease(count);
    }

    public async Task<double> SlowDownAsync(string key, double factor, double maxFactor, TimeSpan settle, TimeSpan holdFor, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.QuerySingleAsync<double>(new CommandDefinition(SlowDownSql,
            new { Key = key, Factor = factor, MaxFactor = maxFactor, SettleUs = Micros(settle), HoldUs = Micros(holdFor) },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<WindowEntry> EnterWindowAsync(string key, int size, TimeSpan endsWithin, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var results = await connection.QueryMultipleAsync(new CommandDefinition(EnterWindowSql,
            new { Key = key, Size = (long)size, EndsWithinUs = Micros(endsWithin), RetryUs = Micros(WindowRow.InFlightRetry) },
            commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        await results.ReadAsync();
        return (await results.ReadSingleAsync<WindowRow>()).ToEntry();
    }

    public async Task LeaveWindowAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(LeaveWindowSql, new { Ids = ids.ToArray() }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    internal static long Micros(TimeSpan span) => span.Ticks / TimeSpan.TicksPerMicrosecond;
}
