using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>Operators' queries on PostgreSQL.</summary>
internal sealed class PostgresOperationsStore : IOperationsStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _windowSql;
    private readonly string _purgeSql;
    private readonly string _rateLimitsSql;

    public PostgresOperationsStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // Latency by the database's clock at both ends: created_at (the insert) to updated_at (the 'sent' record).
        _windowSql = $"""
            SELECT count(*) AS Delivered,
                   count(*) FILTER (WHERE updated_at - created_at <= make_interval(secs => @FastSeconds)) AS WithinFast,
                   count(*) FILTER (WHERE updated_at - created_at <= make_interval(secs => @SloSeconds)) AS WithinSlo,
                   count(*) FILTER (WHERE updated_at >= now() - interval '1 minute') AS LastMinute
            FROM "{s}".delivery_log
            WHERE status = 'sent' AND created_at IS NOT NULL AND updated_at >= now() - make_interval(secs => @WindowSeconds)
            """;
        // A purged row's attached files go with it (they are only ever read for a row that was claimed).
        _purgeSql = $"""
            WITH gone AS (DELETE FROM "{s}".outbox RETURNING id),
            files AS (DELETE FROM "{s}".attachment AS a USING gone WHERE a.notification_id = gone.id)
            SELECT count(*) FROM gone
            """;
        // One row a limit (the relay and each limited domain): a few, read by the primary key's order.
        _rateLimitsSql = $"""
            SELECT name AS Name, slow_factor AS SlowFactor, slow_until_us AS SlowUntilUs, tat_us AS TatUs,
                   (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS NowUs, interval_us AS IntervalUs
            FROM "{s}".rate_limit ORDER BY name LIMIT @Limit
            """;
    }

    public async Task<DeliveryWindow> GetDeliveryWindowAsync(TimeSpan window, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var counts = await connection.QuerySingleAsync<(long Delivered, long WithinFast, long WithinSlo, long LastMinute)>(new CommandDefinition(
            _windowSql,
            new { WindowSeconds = window.TotalSeconds, FastSeconds = DeliveryWindow.FastThreshold.TotalSeconds, SloSeconds = DeliveryWindow.SloThreshold.TotalSeconds },
            commandTimeout: _timeoutSeconds,
            cancellationToken: cancellationToken));
        return new DeliveryWindow(window, counts.Delivered, counts.WithinFast, counts.WithinSlo, counts.LastMinute);
    }

    public async Task<IReadOnlyList<RateLimitState>> ListRateLimitsAsync(int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<(string Name, double SlowFactor, long SlowUntilUs, long TatUs, long NowUs, long? IntervalUs)>(
            new CommandDefinition(_rateLimitsSql, new { Limit = limit }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return rows.Select(r => RateLimitState.FromRow(r.Name, r.SlowFactor, r.SlowUntilUs, r.TatUs, r.NowUs, r.IntervalUs)).ToList();
    }

    public async Task<long> PurgeOutboxAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<long>(new CommandDefinition(_purgeSql, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }
}
