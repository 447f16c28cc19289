using Dapper;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>Notifications by id, idempotency key, recipient or subscriber, and every row kept of one, on PostgreSQL.</summary>
internal sealed class PostgresNotificationSearchStore : INotificationSearchStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;

    public PostgresNotificationSearchStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        KeySql = $"""
            SELECT notification_id AS NotificationId, 'key' AS Source FROM "{s}".idempotency_key
            WHERE idempotency_key = @Text AND notification_id < @Before
            """;
        // Each branch is ordered and limited on its own index; the outbox has none on recipient, so it looks at a bounded
        // run of its newest rows below the cursor.
        RecipientSql = $"""
            SELECT id AS NotificationId, source AS Source FROM (
                (SELECT o.id, 'outbox' AS source
                 FROM (SELECT id, recipient FROM "{s}".outbox WHERE id < @Before ORDER BY id DESC LIMIT {INotificationSearchStore.OutboxScanLimit}) AS o
                 WHERE o.recipient = @Text ORDER BY o.id DESC LIMIT @Limit)
                UNION ALL
                (SELECT j.id, 'fan-out' FROM "{s}".fanout_job AS j WHERE j.audience = @Text AND j.id < @Before ORDER BY j.id DESC LIMIT @Limit)
                UNION ALL
                (SELECT a.id, 'delivery' FROM "{s}".audience_delivery AS a WHERE a.address = @Text AND a.id < @Before ORDER BY a.id DESC LIMIT @Limit)
            ) AS hits
            ORDER BY id DESC LIMIT @Limit
            """;
        SubscriberSql = $"""
            SELECT id AS NotificationId, source AS Source FROM (
                (SELECT o.id, 'outbox' AS source
                 FROM (SELECT id, recipient FROM "{s}".outbox WHERE id < @Before ORDER BY id DESC LIMIT {INotificationSearchStore.OutboxScanLimit}) AS o
                 WHERE o.recipient = 'subscriber:' || @Text ORDER BY o.id DESC LIMIT @Limit)
                UNION ALL
                (SELECT j.id, 'fan-out' FROM "{s}".fanout_job AS j WHERE j.audience = 'subscriber:' || @Text AND j.id < @Before ORDER BY j.id DESC LIMIT @Limit)
                UNION ALL
                (SELECT a.id, 'delivery' FROM "{s}".audience_delivery AS a
                 WHERE a.subscriber_id = (SELECT b.id FROM "{s}".subscriber AS b WHERE b.external_id = @Text) AND a.id < @Before
                 ORDER BY a.id DESC LIMIT @Limit)
            ) AS hits
            ORDER BY id DESC LIMIT @Limit
            """;
        ReadSql = $"""
            SELECT recipient AS Recipient, channel AS Channel, created_at AS CreatedAt, not_before AS NotBefore, traceparent AS TraceParent
            FROM "{s}".outbox WHERE id = @Id;
            SELECT status AS Status, updated_at AS UpdatedAt, attempts AS Attempts, reason AS Reason, claimed_at AS ClaimedAt,
                   published_at AS PublishedAt, trace_id AS TraceId
            FROM "{s}".delivery_log WHERE notification_id = @Id;
            SELECT dead_lettered_at AS DeadLetteredAt, attempts AS Attempts, reason AS Reason, reason_class AS ReasonClass
            FROM "{s}".dead_letter WHERE notification_id = @Id ORDER BY dead_lettered_at, id LIMIT 20;
            SELECT recipient AS Recipient, created_at AS CreatedAt, rejected_at AS RejectedAt, reason AS Reason FROM "{s}".rejected WHERE id = @Id;
            SELECT audience AS Audience, state AS State, created_at AS CreatedAt, finished_at AS FinishedAt, published AS Published
            FROM "{s}".fanout_job WHERE id = @Id;
            SELECT a.parent_id AS ParentId, b.external_id AS Subscriber, a.channel AS Channel, a.address AS Address, j.created_at AS JobCreatedAt
            FROM "{s}".audience_delivery AS a JOIN "{s}".fanout_job AS j ON j.id = a.parent_id
            LEFT JOIN "{s}".subscriber AS b ON b.id = a.subscriber_id WHERE a.id = @Id;
            SELECT outcome AS Outcome, recipient AS Recipient, status AS Status, diagnostic AS Diagnostic, reported_at AS ReportedAt
            FROM "{s}".notification_outcome WHERE notification_id = @Id ORDER BY reported_at LIMIT 20;
            SELECT attempt AS Attempt, failed_at AS FailedAt, reason AS Reason, trace_id AS TraceId
            FROM "{s}".delivery_attempt WHERE notification_id = @Id ORDER BY attempt LIMIT 20;
            """;
    }

    internal string KeySql { get; }

    internal string RecipientSql { get; }

    internal string SubscriberSql { get; }

    internal string ReadSql { get; }

    public async Task<IReadOnlyList<NotificationHit>> FindAsync(NotificationSearchKind kind, string text, long? before, int limit, CancellationToken cancellationToken)
    {
        string sql = SearchSql.For(kind, KeySql, RecipientSql, SubscriberSql);
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var hits = await connection.QueryAsync<NotificationHit>(Command(sql, SearchSql.Parameters(text, before, limit), cancellationToken));
        return hits.AsList();
    }

    public async Task<NotificationRecords> ReadAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var results = await connection.QueryMultipleAsync(Command(ReadSql, new { Id = id }, cancellationToken));
        return await StoryReader.ReadAsync(results);
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
