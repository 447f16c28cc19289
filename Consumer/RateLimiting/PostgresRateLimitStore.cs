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
    }

    internal string LeaseSql { get; }

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

    internal static long Micros(TimeSpan span) => span.Ticks / TimeSpan.TicksPerMicrosecond;
}
