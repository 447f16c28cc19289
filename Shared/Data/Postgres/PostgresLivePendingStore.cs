using Dapper;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>live_pending</c> table on PostgreSQL.</summary>
internal sealed class PostgresLivePendingStore(NpgsqlDataSource dataSource, DatabaseOptions options) : ILivePendingStore
{
    private readonly int _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
    private readonly OutcomeEvents _events = new(options);

    // Two statements, one implicit transaction (Npgsql sends them as one batch): the second sees the rows the first added, so
    // a subscriber keeps its newest @Cap unexpired rows even when one batch brings more than that.
    private readonly string _addSql = $"""
        INSERT INTO "{options.Schema}".live_pending (notification_id, subscriber_id, subject, body, data, expires_at, at_most_once)
        SELECT * FROM unnest(@Ids, @Subscribers, @Subjects, @Bodies, @Data, @ExpiresAt, @AtMostOnce)
        ON CONFLICT (notification_id) DO NOTHING;
        UPDATE "{options.Schema}".live_pending SET expires_at = now()
        WHERE notification_id IN (
            SELECT notification_id FROM (
                SELECT notification_id, row_number() OVER (PARTITION BY subscriber_id ORDER BY notification_id DESC) AS newer
                FROM "{options.Schema}".live_pending
                WHERE subscriber_id = ANY (@Subscribers) AND (expires_at IS NULL OR expires_at > now())) AS ranked
            WHERE newer > @Cap)
        RETURNING subscriber_id
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
        DELETE FROM "{options.Schema}".live_pending AS p
        USING unnest(@Subscribers, @Ids) AS a(subscriber_id, notification_id)
        WHERE p.subscriber_id = a.subscriber_id AND p.notification_id = a.notification_id
        RETURNING p.subscriber_id AS Subscriber, p.notification_id AS Id
        """;

    // From where the last sweep ended on the live_pending_expires index; rows another gateway's sweep holds are left to it.
    private readonly string _reportExpiredSql = $"""
        WITH due AS (
            SELECT notification_id FROM "{options.Schema}".live_pending
            WHERE expires_at >= @Since AND expires_at <= now() AND expiry_reported_at IS NULL
            ORDER BY expires_at
            LIMIT @Max FOR UPDATE SKIP LOCKED)
        UPDATE "{options.Schema}".live_pending AS p SET expiry_reported_at = now()
        FROM due WHERE p.notification_id = due.notification_id
        RETURNING p.notification_id AS Id, p.subscriber_id AS Subscriber, p.expires_at AS ExpiresAt
        """;

    private readonly string _findSql = $"""
        SELECT subscriber_id AS Subscriber, created_at AS CreatedAt, expires_at AS ExpiresAt, sent_at AS SentAt, at_most_once AS AtMostOnce
        FROM "{options.Schema}".live_pending WHERE notification_id = @Id
        """;

    // Per subscriber an index range of live_pending_subscriber, stopping at the cap.
    private readonly string _countPendingSql = $"""
        SELECT s.id AS Subscriber,
               (SELECT count(*) FROM (SELECT 1 FROM "{options.Schema}".live_pending AS p
                                      WHERE p.subscriber_id = s.id AND (p.expires_at IS NULL OR p.expires_at > now()) AND (NOT p.at_most_once OR p.sent_at IS NULL)
                                      LIMIT @Cap + 1) AS x)::int AS Pending
        FROM unnest(@Subscribers::varchar[]) AS s (id)
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

    public async Task<IReadOnlyDictionary<string, int>> CountPendingAsync(IReadOnlyList<string> subscribers, int cap, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<(string Subscriber, int Pending)>(
            Command(_countPendingSql, new { Subscribers = subscribers.Distinct(StringComparer.Ordinal).ToArray(), Cap = cap }, cancellationToken));
        return rows.Where(r => r.Pending > 0).ToDictionary(r => r.Subscriber, r => r.Pending, StringComparer.Ordinal);
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

    public async Task<IReadOnlyList<LiveCapped>> AddAsync(IReadOnlyList<LivePending> rows, int cap, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(rows);
        if (rows.Count == 0)
        {
            return [];
        }

        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var capped = await connection.QueryAsync<string>(Command(_addSql, new
        {
            Ids = rows.Select(r => r.Id).ToArray(),
            Subscribers = rows.Select(r => r.Subscriber).ToArray(),
            Subjects = rows.Select(r => r.Subject).ToArray(),
            Bodies = rows.Select(r => r.Body).ToArray(),
            Data = rows.Select(r => r.Data).ToArray(),
            ExpiresAt = rows.Select(r => r.ExpiresAt?.UtcDateTime).ToArray(),
            AtMostOnce = rows.Select(r => r.AtMostOnce).ToArray(),
            Cap = cap,
        }, cancellationToken));
        return capped.CountBy(s => s).Select(c => new LiveCapped(c.Key, c.Value)).ToList();
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

    public async Task<IReadOnlySet<LiveAck>> AckAsync(IReadOnlyList<LiveAck> acks, bool withEvents, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(acks);
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = withEvents ? await connection.BeginTransactionAsync(cancellationToken) : null;
        var gone = (await connection.QueryAsync<(string Subscriber, long Id)>(Command(_ackSql, new
        {
            Subscribers = acks.Select(a => a.Subscriber).ToArray(), Ids = acks.Select(a => a.Id).ToArray(),
        }, cancellationToken, transaction))).Select(g => new LiveAck(g.Subscriber, g.Id)).ToHashSet();
        if (transaction is not null)
        {
            await LiveOutcomeEvents.CommitAsync(_events, connection, transaction, LiveOutcomeEvents.Acked(gone, DateTimeOffset.UtcNow), cancellationToken);
        }

        return gone;
    }

    public async Task<int> ReportExpiredAsync(DateTimeOffset since, int max, bool withEvents, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var expired = (await connection.QueryAsync<(long Id, string Subscriber, DateTime ExpiresAt)>(
            Command(_reportExpiredSql, new { Since = since.UtcDateTime, Max = max }, cancellationToken, transaction)))
            .Select(r => new LiveExpiry(r.Id, r.Subscriber, Utc(r.ExpiresAt))).ToList();
        await LiveOutcomeEvents.CommitAsync(_events, connection, transaction, withEvents ? LiveOutcomeEvents.Expired(expired) : [], cancellationToken);
        return expired.Count;
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken, System.Data.Common.DbTransaction? transaction = null) =>
        new(sql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken);

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
