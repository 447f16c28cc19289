using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>Notifications by id, idempotency key, recipient or subscriber, and every row kept of one, on SQL Server.</summary>
internal sealed class SqlServerNotificationSearchStore : INotificationSearchStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerNotificationSearchStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        KeySql = $"""
            SELECT notification_id AS NotificationId, 'key' AS Source FROM [{s}].[idempotency_key]
            WHERE idempotency_key = @Text AND notification_id < @Before;
            """;
        RecipientSql = Hits(s, "@Text", $"""
            SELECT TOP (@Limit) id FROM [{s}].[audience_delivery] WHERE address = @Text AND id < @Before ORDER BY id DESC
            """);
        SubscriberSql = Hits(s, "N'subscriber:' + @Text", $"""
            SELECT TOP (@Limit) id FROM [{s}].[audience_delivery]
            WHERE subscriber_id = (SELECT b.id FROM [{s}].[subscriber] AS b WHERE b.external_id = @Text) AND id < @Before ORDER BY id DESC
            """);
        ReadSql = $"""
            SELECT recipient AS Recipient, channel AS Channel, CAST(SWITCHOFFSET(created_at, '+00:00') AS datetime2(3)) AS CreatedAt,
                   CAST(SWITCHOFFSET(not_before, '+00:00') AS datetime2(3)) AS NotBefore, traceparent AS TraceParent
            FROM [{s}].[outbox] WHERE id = @Id;
            SELECT status AS Status, CAST(SWITCHOFFSET(updated_at, '+00:00') AS datetime2(3)) AS UpdatedAt, attempts AS Attempts, reason AS Reason,
                   CAST(SWITCHOFFSET(claimed_at, '+00:00') AS datetime2(3)) AS ClaimedAt,
                   CAST(SWITCHOFFSET(published_at, '+00:00') AS datetime2(3)) AS PublishedAt, trace_id AS TraceId
            FROM [{s}].[delivery_log] WHERE notification_id = @Id;
            SELECT TOP (20) CAST(SWITCHOFFSET(dead_lettered_at, '+00:00') AS datetime2(3)) AS DeadLetteredAt, attempts AS Attempts, reason AS Reason,
                   reason_class AS ReasonClass
            FROM [{s}].[dead_letter] WHERE notification_id = @Id ORDER BY dead_lettered_at, id;
            SELECT recipient AS Recipient, CAST(SWITCHOFFSET(created_at, '+00:00') AS datetime2(3)) AS CreatedAt,
                   CAST(SWITCHOFFSET(rejected_at, '+00:00') AS datetime2(3)) AS RejectedAt, reason AS Reason
            FROM [{s}].[rejected] WHERE id = @Id;
            SELECT audience AS Audience, state AS State, CAST(SWITCHOFFSET(created_at, '+00:00') AS datetime2(3)) AS CreatedAt,
                   CAST(SWITCHOFFSET(finished_at, '+00:00') AS datetime2(3)) AS FinishedAt, published AS Published
            FROM [{s}].[fanout_job] WHERE id = @Id;
            SELECT a.parent_id AS ParentId, b.external_id AS Subscriber, a.channel AS Channel, a.address AS Address,
                   CAST(SWITCHOFFSET(j.created_at, '+00:00') AS datetime2(3)) AS JobCreatedAt
            FROM [{s}].[audience_delivery] AS a JOIN [{s}].[fanout_job] AS j ON j.id = a.parent_id
            LEFT JOIN [{s}].[subscriber] AS b ON b.id = a.subscriber_id WHERE a.id = @Id;
            SELECT TOP (20) outcome AS Outcome, recipient AS Recipient, status AS Status, diagnostic AS Diagnostic,
                   CAST(SWITCHOFFSET(reported_at, '+00:00') AS datetime2(3)) AS ReportedAt
            FROM [{s}].[notification_outcome] WHERE notification_id = @Id ORDER BY reported_at;
            SELECT TOP (20) attempt AS Attempt, CAST(SWITCHOFFSET(failed_at, '+00:00') AS datetime2(3)) AS FailedAt, reason AS Reason, trace_id AS TraceId
            FROM [{s}].[delivery_attempt] WHERE notification_id = @Id ORDER BY attempt;
            """;
    }

    internal string KeySql { get; }

    internal string RecipientSql { get; }

    internal string SubscriberSql { get; }

    internal string ReadSql { get; }

    public async Task<IReadOnlyList<NotificationHit>> FindAsync(NotificationSearchKind kind, string text, long? before, int limit, CancellationToken cancellationToken)
    {
        string sql = SearchSql.For(kind, KeySql, RecipientSql, SubscriberSql);
        await using var connection = new SqlConnection(_connectionString);
        var hits = await connection.QueryAsync<NotificationHit>(Command(sql, SearchSql.Parameters(text, before, limit), cancellationToken));
        return hits.AsList();
    }

    public async Task<NotificationRecords> ReadAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await using var results = await connection.QueryMultipleAsync(Command(ReadSql, new { Id = id }, cancellationToken));
        return await StoryReader.ReadAsync(results);
    }

    // The outbox (no index on recipient: the newest rows below the cursor, bounded), the audience row's fan-out job, the deliveries.
    private static string Hits(string s, string audience, string deliveries) => $"""
        SELECT TOP (@Limit) h.NotificationId, h.Source FROM (
            SELECT o.id AS NotificationId, 'outbox' AS Source
            FROM (SELECT TOP ({INotificationSearchStore.OutboxScanLimit}) id, recipient FROM [{s}].[outbox] WHERE id < @Before ORDER BY id DESC) AS o
            WHERE o.recipient = {audience}
            UNION ALL
            SELECT j.id, 'fan-out' FROM (SELECT TOP (@Limit) id FROM [{s}].[fanout_job] WHERE audience = {audience} AND id < @Before ORDER BY id DESC) AS j
            UNION ALL
            SELECT d.id, 'delivery' FROM ({deliveries}) AS d
        ) AS h
        ORDER BY h.NotificationId DESC;
        """;

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
