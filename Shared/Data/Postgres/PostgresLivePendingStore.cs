using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>live_pending</c> table on PostgreSQL.</summary>
internal sealed class PostgresLivePendingStore(NpgsqlDataSource dataSource, DatabaseOptions options) : ILivePendingStore
{
    private readonly int _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;

    // The new row is not visible to the cap's subquery (one snapshot): it keeps the newest cap - 1 others.
    private readonly string _addSql = $"""
        WITH added AS (
            INSERT INTO "{options.Schema}".live_pending (notification_id, subscriber_id, subject, body, data, expires_at, at_most_once)
            VALUES (@Id, @Subscriber, @Subject, @Body, @Data, @ExpiresAt, @AtMostOnce)
            ON CONFLICT (notification_id) DO NOTHING
            RETURNING notification_id),
        capped AS (
            UPDATE "{options.Schema}".live_pending SET expires_at = now()
            WHERE EXISTS (SELECT FROM added) AND notification_id IN (
                SELECT notification_id FROM "{options.Schema}".live_pending
                WHERE subscriber_id = @Subscriber AND (expires_at IS NULL OR expires_at > now())
                ORDER BY notification_id DESC OFFSET @Cap - 1)
            RETURNING notification_id)
        SELECT (SELECT count(*) FROM added)::int AS Added, (SELECT count(*) FROM capped)::int AS Expired
        """;

    private readonly string _pendingSql = $"""
        SELECT notification_id AS Id, subscriber_id AS Subscriber, subject AS Subject, body AS Body, data AS Data,
               expires_at AS ExpiresAt, at_most_once AS AtMostOnce
        FROM "{options.Schema}".live_pending
        WHERE subscriber_id = @Subscriber AND (expires_at IS NULL OR expires_at > now()) AND (NOT at_most_once OR sent_at IS NULL)
        ORDER BY notification_id LIMIT @Max
        """;

    private readonly string _markSentSql = $"""
        UPDATE "{options.Schema}".live_pending SET sent_at = now()
        WHERE notification_id = ANY (@Ids) AND sent_at IS NULL
        RETURNING notification_id
        """;

    private readonly string _ackSql = $"""
        DELETE FROM "{options.Schema}".live_pending WHERE subscriber_id = @Subscriber AND notification_id = @Id
        """;

    private readonly string _findSql = $"""
        SELECT subscriber_id AS Subscriber, created_at AS CreatedAt, expires_at AS ExpiresAt, sent_at AS SentAt, at_most_once AS AtMostOnce
        FROM "{options.Schema}".live_pending WHERE notification_id = @Id
        """;

    private readonly string _ageSql = $"""
        SELECT now() - created_at FROM "{options.Schema}".live_pending WHERE notification_id = @Id
        """;

    private readonly string _recordLiveAckedSql = $"""
        INSERT INTO "{options.Schema}".delivery_log (notification_id, status, created_at, attempts, reason)
        VALUES (@Id, 'live_acked', @CreatedAt, @Attempts, @Reason)
        ON CONFLICT (notification_id) DO NOTHING
        """;

    public async Task<LivePendingState?> FindAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<StateRow>(Command(_findSql, new { Id = id }, cancellationToken));
        return row is null ? null : new LivePendingState(row.Subscriber, Utc(row.CreatedAt), UtcOrNull(row.ExpiresAt), UtcOrNull(row.SentAt), row.AtMostOnce);
    }

    public async Task<TimeSpan?> AgeAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<TimeSpan?>(Command(_ageSql, new { Id = id }, cancellationToken));
    }

    public async Task RecordLiveAckedAsync(long id, DateTimeOffset createdAt, int attempts, string reason, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(Command(_recordLiveAckedSql, new
        {
            Id = id, CreatedAt = createdAt.UtcDateTime, Attempts = attempts, Reason = reason,
        }, cancellationToken));
    }

    public async Task<LiveAdded> AddAsync(LivePending row, int cap, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(row);
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var (added, expired) = await connection.QuerySingleAsync<(int, int)>(Command(_addSql, new
        {
            row.Id, row.Subscriber, row.Subject, row.Body, row.Data, ExpiresAt = row.ExpiresAt?.ToUniversalTime(), row.AtMostOnce, Cap = cap,
        }, cancellationToken));
        return new LiveAdded(added == 1, expired);
    }

    public async Task<IReadOnlyList<LivePending>> PendingAsync(string subscriber, int max, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<Row>(Command(_pendingSql, new { Subscriber = subscriber, Max = max }, cancellationToken));
        return rows.Select(r => r.ToPending()).ToList();
    }

    public async Task<IReadOnlyList<long>> MarkSentAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ids);
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<long>(Command(_markSentSql, new { Ids = ids.ToArray() }, cancellationToken))).AsList();
    }

    public async Task<bool> AckAsync(string subscriber, long id, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(Command(_ackSql, new { Subscriber = subscriber, Id = id }, cancellationToken)) == 1;
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);

    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));

    private static DateTimeOffset? UtcOrNull(DateTime? value) => value is { } at ? Utc(at) : null;

    private sealed class StateRow
    {
        public string Subscriber { get; set; } = "";

        public DateTime CreatedAt { get; set; }

        public DateTime? ExpiresAt { get; set; }

        public DateTime? SentAt { get; set; }

        public bool AtMostOnce { get; set; }
    }

    private sealed class Row
    {
        public long Id { get; set; }

        public string Subscriber { get; set; } = "";

        public string? Subject { get; set; }

        public string? Body { get; set; }

        public string? Data { get; set; }

        public DateTime? ExpiresAt { get; set; }

        public bool AtMostOnce { get; set; }

        public LivePending ToPending() => new(Id, Subscriber, Subject, Body, Data,
            UtcOrNull(ExpiresAt), AtMostOnce);
    }
}
