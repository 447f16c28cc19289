using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>live_broadcast</c> tables on PostgreSQL.</summary>
internal sealed class PostgresLiveBroadcastStore : ILiveBroadcastStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;

    public PostgresLiveBroadcastStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // Whether the topic exists: the row is written from it, so a missing topic writes nothing.
        AddSql = $"""
            WITH t AS (SELECT id FROM "{s}".topic WHERE name = @Topic),
            added AS (
                INSERT INTO "{s}".live_broadcast (notification_id, topic_id, category, subject, body, data, expires_at, at_most_once)
                SELECT @Id, t.id, @Category, @Subject, @Body, @Data, @ExpiresAt, @AtMostOnce FROM t
                ON CONFLICT (notification_id) DO NOTHING)
            SELECT count(*)::int FROM t
            """;
        // Who of a broadcast's (b) subscribers (sb) gets it, as the fan-out's page picks a delivery: the category's preference or
        // default on live (a critical category, or one nobody made, always), and no receipt yet (acked, or at most once marked).
        string letThrough = $"""
            LEFT JOIN "{s}".category AS c ON c.name = b.category
            LEFT JOIN "{s}".preference AS pr ON pr.subscriber_id = sb.id AND pr.category = c.name AND pr.channel = 'live'
            LEFT JOIN "{s}".category_default AS d ON d.category = c.name AND d.channel = 'live'
            """;
        string sendable = $"""
            (c.critical OR COALESCE(pr.enabled, d.enabled, true))
            AND NOT EXISTS (SELECT 1 FROM "{s}".live_broadcast_receipt AS r WHERE r.notification_id = b.notification_id AND r.subscriber_id = sb.external_id)
            """;
        // The topic's subscribers among @Subscribers who subscribed before the row was written and get it.
        string recipients = $"""
            SELECT sb.external_id
            FROM "{s}".live_broadcast AS b
            JOIN "{s}".subscription AS su ON su.topic_id = b.topic_id AND su.created_at <= b.created_at
            JOIN "{s}".subscriber AS sb ON sb.id = su.subscriber_id
            {letThrough}
            WHERE b.notification_id = @Id AND b.expires_at > now() AND sb.external_id = ANY (@Subscribers)
              AND {sendable}
            """;
        RecipientsSql = recipients;
        MarkRecipientsSql = $"""
            INSERT INTO "{s}".live_broadcast_receipt (notification_id, subscriber_id, sent_at)
            SELECT @Id, r.external_id, now() FROM ({recipients}) AS r
            ON CONFLICT (notification_id, subscriber_id) DO NOTHING
            RETURNING subscriber_id
            """;
        // A connecting app's broadcasts: of those it has not acked, the newest @Cap; the older ones expire for it (a receipt
        // marked expired: not sent to it again). The at-most-once ones sent now are marked in the same statement, and only
        // those it marked are sent.
        PendingSql = $"""
            WITH unacked AS (
                SELECT b.notification_id AS id, b.subject, b.body, b.data, b.expires_at, b.at_most_once, b.created_at,
                       row_number() OVER (ORDER BY b.created_at DESC, b.notification_id DESC) AS newest
                FROM "{s}".subscriber AS sb
                JOIN "{s}".subscription AS su ON su.subscriber_id = sb.id
                JOIN "{s}".live_broadcast AS b ON b.topic_id = su.topic_id AND b.created_at >= su.created_at AND b.expires_at > now()
                {letThrough}
                WHERE sb.external_id = @Subscriber AND {sendable}),
            capped AS (
                INSERT INTO "{s}".live_broadcast_receipt (notification_id, subscriber_id, expired_at)
                SELECT id, @Subscriber, now() FROM unacked WHERE newest > @Cap
                ON CONFLICT (notification_id, subscriber_id) DO NOTHING
                RETURNING notification_id),
            due AS (
                SELECT id, subject, body, data, expires_at, at_most_once, created_at FROM unacked
                WHERE newest <= @Cap
                ORDER BY created_at, id
                LIMIT @Max),
            marked AS (
                INSERT INTO "{s}".live_broadcast_receipt (notification_id, subscriber_id, sent_at)
                SELECT id, @Subscriber, now() FROM due WHERE at_most_once
                ON CONFLICT (notification_id, subscriber_id) DO NOTHING
                RETURNING notification_id)
            SELECT id AS Id, subject AS Subject, body AS Body, data AS Data, expires_at AS ExpiresAt, created_at AS CreatedAt, 0 AS Capped
            FROM due WHERE NOT at_most_once OR id IN (SELECT notification_id FROM marked)
            UNION ALL
            SELECT NULL, NULL, NULL, NULL, NULL, NULL, count(*)::int FROM capped HAVING count(*) > 0
            ORDER BY CreatedAt NULLS LAST, Id
            """;
        // admin show: the broadcast, its receipts by state, the first ones by subscriber.
        ReportSql = $"""
            SELECT t.name AS Topic, b.created_at AS CreatedAt, b.expires_at AS ExpiresAt, b.at_most_once AS AtMostOnce
            FROM "{s}".live_broadcast AS b JOIN "{s}".topic AS t ON t.id = b.topic_id
            WHERE b.notification_id = @Id
            """;
        const string state = "CASE WHEN acked_at IS NOT NULL THEN 'acked' WHEN expired_at IS NOT NULL THEN 'expired' ELSE 'sent' END";
        ReceiptTallySql = $"""
            SELECT {state} AS State, count(*) AS Count
            FROM "{s}".live_broadcast_receipt WHERE notification_id = @Id
            GROUP BY 1 ORDER BY 1
            """;
        FirstReceiptsSql = $"""
            SELECT subscriber_id AS Subscriber, {state} AS State, COALESCE(acked_at, expired_at, sent_at) AS At
            FROM "{s}".live_broadcast_receipt WHERE notification_id = @Id
            ORDER BY subscriber_id LIMIT @Limit
            """;
        // Only a broadcast to one of the subscriber's topics is its to ack; an ack again changes nothing.
        AckSql = $"""
            INSERT INTO "{s}".live_broadcast_receipt AS r (notification_id, subscriber_id, acked_at)
            SELECT a.notification_id, a.subscriber_id, now()
            FROM unnest(@Subscribers, @Ids) AS a (subscriber_id, notification_id)
            JOIN "{s}".live_broadcast AS b ON b.notification_id = a.notification_id
            JOIN "{s}".subscriber AS sb ON sb.external_id = a.subscriber_id
            JOIN "{s}".subscription AS su ON su.subscriber_id = sb.id AND su.topic_id = b.topic_id
            ON CONFLICT (notification_id, subscriber_id) DO UPDATE SET acked_at = now() WHERE r.acked_at IS NULL
            RETURNING r.subscriber_id AS Subscriber, r.notification_id AS Id
            """;
    }

    internal string AddSql { get; }

    internal string RecipientsSql { get; }

    internal string MarkRecipientsSql { get; }

    internal string PendingSql { get; }

    internal string AckSql { get; }

    internal string ReportSql { get; }

    internal string ReceiptTallySql { get; }

    internal string FirstReceiptsSql { get; }

    public async Task<bool> AddAsync(LiveBroadcast broadcast, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(broadcast);
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<int>(Command(AddSql, new
        {
            broadcast.Id, broadcast.Topic, broadcast.Category, broadcast.Subject, broadcast.Body, broadcast.Data,
            ExpiresAt = broadcast.ExpiresAt.UtcDateTime, broadcast.AtMostOnce,
        }, cancellationToken)) > 0;
    }

    public async Task<IReadOnlyList<string>> RecipientsAsync(long id, IReadOnlyList<string> subscribers, bool atMostOnce, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(subscribers);
        if (subscribers.Count == 0)
        {
            return [];
        }

        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<string>(Command(atMostOnce ? MarkRecipientsSql : RecipientsSql,
            new { Id = id, Subscribers = subscribers as string[] ?? [.. subscribers] }, cancellationToken))).AsList();
    }

    public async Task<LiveBroadcastReplay> PendingAsync(string subscriber, int max, int cap, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var rows = (await connection.QueryAsync<PendingRow>(
            Command(PendingSql, new { Subscriber = subscriber, Max = max, Cap = cap }, cancellationToken))).AsList();
        return new LiveBroadcastReplay(
            rows.Where(r => r.Id is not null).Select(r => new LivePending(r.Id!.Value, subscriber, r.Subject, r.Body, r.Data,
                Utc(r.ExpiresAt!.Value), AtMostOnce: false)).ToList(),
            rows.Sum(r => r.Capped));
    }

    public async Task<IReadOnlySet<LiveAck>> AckAsync(IReadOnlyList<LiveAck> acks, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(acks);
        if (acks.Count == 0)
        {
            return new HashSet<LiveAck>();
        }

        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<(string Subscriber, long Id)>(Command(AckSql, new
        {
            Subscribers = acks.Select(a => a.Subscriber).ToArray(), Ids = acks.Select(a => a.Id).ToArray(),
        }, cancellationToken))).Select(a => new LiveAck(a.Subscriber, a.Id)).ToHashSet();
    }

    public async Task<LiveBroadcastReport?> ReportAsync(long id, int first, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var found = (await connection.QueryAsync<(string Topic, DateTime CreatedAt, DateTime ExpiresAt, bool AtMostOnce)>(
            Command(ReportSql, new { Id = id }, cancellationToken))).AsList();
        if (found.Count == 0)
        {
            return null;
        }

        var b = found[0];
        var tallies = await connection.QueryAsync<ReceiptTally>(Command(ReceiptTallySql, new { Id = id }, cancellationToken));
        var receipts = first == 0 ? [] : await connection.QueryAsync<(string Subscriber, string State, DateTime At)>(
            Command(FirstReceiptsSql, new { Id = id, Limit = first }, cancellationToken));
        return new LiveBroadcastReport(b.Topic, Utc(b.CreatedAt), Utc(b.ExpiresAt), b.AtMostOnce, [.. tallies],
            [.. receipts.Select(r => new ReceiptEntry(r.Subscriber, r.State, Utc(r.At)))]);
    }

    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));

    // A broadcast to send, or (Id null) how many expired past the cap.
    private sealed class PendingRow
    {
        public long? Id { get; set; }

        public string? Subject { get; set; }

        public string? Body { get; set; }

        public string? Data { get; set; }

        public DateTime? ExpiresAt { get; set; }

        public DateTime? CreatedAt { get; set; }

        public int Capped { get; set; }
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
