using System.Text.Json;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>live_broadcast</c> tables on SQL Server.</summary>
internal sealed class SqlServerLiveBroadcastStore : ILiveBroadcastStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerLiveBroadcastStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // Whether the topic exists: the row is written from it, so a missing topic writes nothing. UPDLOCK + HOLDLOCK on the
        // id's key: a redelivered copy written at the same moment waits, then finds the row.
        AddSql = $"""
            SET NOCOUNT ON;
            INSERT INTO [{s}].[live_broadcast] (notification_id, topic_id, category, subject, body, data, expires_at, at_most_once)
            SELECT @Id, t.id, @Category, @Subject, @Body, @Data, @ExpiresAt, @AtMostOnce FROM [{s}].[topic] AS t
            WHERE t.name = @Topic
              AND NOT EXISTS (SELECT 1 FROM [{s}].[live_broadcast] WITH (UPDLOCK, HOLDLOCK) WHERE notification_id = @Id);
            SELECT COUNT(*) FROM [{s}].[topic] WHERE name = @Topic;
            """;
        // Who of a broadcast's (b) subscribers (sb) gets it, as the fan-out's page picks a delivery: the category's preference or
        // default on live (a critical category, or one nobody made, always), and no receipt yet (acked, or at most once marked).
        string letThrough = $"""
            LEFT JOIN [{s}].[category] AS c ON c.name = b.category
            LEFT JOIN [{s}].[preference] AS pr ON pr.subscriber_id = sb.id AND pr.category = c.name AND pr.channel = 'live'
            LEFT JOIN [{s}].[category_default] AS d ON d.category = c.name AND d.channel = 'live'
            """;
        string sendable = $"""
            (c.critical = 1 OR COALESCE(pr.enabled, d.enabled, CAST(1 AS bit)) = 1)
            AND NOT EXISTS (SELECT 1 FROM [{s}].[live_broadcast_receipt] AS r WHERE r.notification_id = b.notification_id AND r.subscriber_id = sb.external_id)
            """;
        // The topic's subscribers among @Subscribers (one JSON array read by OPENJSON) who subscribed before the row was written
        // and get it.
        string recipients = $"""
            SELECT sb.external_id
            FROM [{s}].[live_broadcast] AS b
            JOIN [{s}].[subscription] AS su ON su.topic_id = b.topic_id AND su.created_at <= b.created_at
            JOIN [{s}].[subscriber] AS sb ON sb.id = su.subscriber_id
            JOIN OPENJSON(@Subscribers) WITH (id varchar(128) '$') AS j ON j.id = sb.external_id
            {letThrough}
            WHERE b.notification_id = @Id AND b.expires_at > SYSDATETIMEOFFSET()
              AND {sendable}
            """;
        RecipientsSql = recipients + ";";
        MarkRecipientsSql = $"""
            SET NOCOUNT ON;
            INSERT INTO [{s}].[live_broadcast_receipt] (notification_id, subscriber_id, sent_at)
            OUTPUT INSERTED.subscriber_id
            SELECT @Id, r.external_id, SYSDATETIMEOFFSET() FROM ({recipients}) AS r
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[live_broadcast_receipt] WITH (UPDLOCK, HOLDLOCK)
                              WHERE notification_id = @Id AND subscriber_id = r.external_id);
            """;
        // A connecting app's broadcasts: of those it has not acked, the newest @Cap; the older ones expire for it (a receipt
        // marked expired: not sent to it again). The at-most-once ones sent now are marked in the same batch, and only those it
        // marked are sent.
        PendingSql = $"""
            SET NOCOUNT ON;
            DECLARE @unacked TABLE (id bigint PRIMARY KEY, subject nvarchar(998), body nvarchar(max), data nvarchar(max),
                                    expires_at datetimeoffset(3), at_most_once bit, created_at datetimeoffset(3), newest bigint);
            DECLARE @due TABLE (id bigint PRIMARY KEY, subject nvarchar(998), body nvarchar(max), data nvarchar(max),
                                expires_at datetimeoffset(3), at_most_once bit, created_at datetimeoffset(3));
            DECLARE @capped TABLE (id bigint PRIMARY KEY);
            DECLARE @marked TABLE (id bigint PRIMARY KEY);
            INSERT INTO @unacked (id, subject, body, data, expires_at, at_most_once, created_at, newest)
            SELECT b.notification_id, b.subject, b.body, b.data, b.expires_at, b.at_most_once, b.created_at,
                   ROW_NUMBER() OVER (ORDER BY b.created_at DESC, b.notification_id DESC)
            FROM [{s}].[subscriber] AS sb
            JOIN [{s}].[subscription] AS su ON su.subscriber_id = sb.id
            JOIN [{s}].[live_broadcast] AS b ON b.topic_id = su.topic_id AND b.created_at >= su.created_at AND b.expires_at > SYSDATETIMEOFFSET()
            {letThrough}
            WHERE sb.external_id = @Subscriber AND {sendable};
            INSERT INTO [{s}].[live_broadcast_receipt] (notification_id, subscriber_id, expired_at)
            OUTPUT INSERTED.notification_id INTO @capped (id)
            SELECT u.id, @Subscriber, SYSDATETIMEOFFSET() FROM @unacked AS u
            WHERE u.newest > @Cap
              AND NOT EXISTS (SELECT 1 FROM [{s}].[live_broadcast_receipt] WITH (UPDLOCK, HOLDLOCK)
                              WHERE notification_id = u.id AND subscriber_id = @Subscriber);
            INSERT INTO @due (id, subject, body, data, expires_at, at_most_once, created_at)
            SELECT TOP (@Max) u.id, u.subject, u.body, u.data, u.expires_at, u.at_most_once, u.created_at
            FROM @unacked AS u WHERE u.newest <= @Cap
            ORDER BY u.created_at, u.id;
            INSERT INTO [{s}].[live_broadcast_receipt] (notification_id, subscriber_id, sent_at)
            OUTPUT INSERTED.notification_id INTO @marked (id)
            SELECT d.id, @Subscriber, SYSDATETIMEOFFSET() FROM @due AS d
            WHERE d.at_most_once = 1
              AND NOT EXISTS (SELECT 1 FROM [{s}].[live_broadcast_receipt] WITH (UPDLOCK, HOLDLOCK)
                              WHERE notification_id = d.id AND subscriber_id = @Subscriber);
            SELECT d.id AS Id, d.subject AS Subject, d.body AS Body, d.data AS Data, d.expires_at AS ExpiresAt, d.created_at AS CreatedAt,
                   0 AS Capped
            FROM @due AS d WHERE d.at_most_once = 0 OR d.id IN (SELECT m.id FROM @marked AS m)
            UNION ALL
            SELECT NULL, NULL, NULL, NULL, NULL, NULL, COUNT(*) FROM @capped HAVING COUNT(*) > 0
            ORDER BY CreatedAt, Id;
            """;
        // admin show: the broadcast, its receipts by state, the first ones by subscriber.
        ReportSql = $"""
            SELECT t.name AS Topic, b.created_at AS CreatedAt, b.expires_at AS ExpiresAt, b.at_most_once AS AtMostOnce
            FROM [{s}].[live_broadcast] AS b JOIN [{s}].[topic] AS t ON t.id = b.topic_id
            WHERE b.notification_id = @Id;
            """;
        const string state = "CASE WHEN acked_at IS NOT NULL THEN 'acked' WHEN expired_at IS NOT NULL THEN 'expired' ELSE 'sent' END";
        ReceiptTallySql = $"""
            SELECT {state} AS State, CAST(COUNT(*) AS bigint) AS Count
            FROM [{s}].[live_broadcast_receipt] WHERE notification_id = @Id
            GROUP BY {state} ORDER BY State;
            """;
        FirstReceiptsSql = $"""
            SELECT TOP (@Limit) subscriber_id AS Subscriber, {state} AS State, COALESCE(acked_at, expired_at, sent_at) AS At
            FROM [{s}].[live_broadcast_receipt] WHERE notification_id = @Id
            ORDER BY subscriber_id;
            """;
        // The acks travel as one JSON array read by OPENJSON. Only a broadcast to one of the subscriber's topics is its to
        // ack; an ack again changes nothing. A receipt there (marked sent) is updated, else one is added.
        AckSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            DECLARE @acks TABLE (subscriber varchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL, id bigint NOT NULL,
                                 PRIMARY KEY (id, subscriber));
            DECLARE @done TABLE (subscriber varchar(128) NOT NULL, id bigint NOT NULL);
            INSERT INTO @acks (subscriber, id)
            SELECT DISTINCT a.subscriber, a.id
            FROM OPENJSON(@Acks) WITH (subscriber varchar(128) '$.subscriber', id bigint '$.id') AS a
            JOIN [{s}].[live_broadcast] AS b ON b.notification_id = a.id
            JOIN [{s}].[subscriber] AS sb ON sb.external_id = a.subscriber
            JOIN [{s}].[subscription] AS su ON su.subscriber_id = sb.id AND su.topic_id = b.topic_id;
            BEGIN TRANSACTION;
            UPDATE r SET acked_at = SYSDATETIMEOFFSET()
            OUTPUT INSERTED.subscriber_id, INSERTED.notification_id INTO @done (subscriber, id)
            FROM [{s}].[live_broadcast_receipt] AS r WITH (UPDLOCK, HOLDLOCK)
            JOIN @acks AS a ON a.id = r.notification_id AND a.subscriber = r.subscriber_id
            WHERE r.acked_at IS NULL;
            INSERT INTO [{s}].[live_broadcast_receipt] (notification_id, subscriber_id, acked_at)
            OUTPUT INSERTED.subscriber_id, INSERTED.notification_id INTO @done (subscriber, id)
            SELECT a.id, a.subscriber, SYSDATETIMEOFFSET() FROM @acks AS a
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[live_broadcast_receipt] WITH (UPDLOCK, HOLDLOCK)
                              WHERE notification_id = a.id AND subscriber_id = a.subscriber);
            COMMIT TRANSACTION;
            SELECT subscriber AS Subscriber, id AS Id FROM @done;
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
        await using var connection = await OpenAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<int>(Command(AddSql, new
        {
            broadcast.Id, broadcast.Topic, broadcast.Category, broadcast.Subject, broadcast.Body, broadcast.Data,
            broadcast.ExpiresAt, broadcast.AtMostOnce,
        }, cancellationToken)) > 0;
    }

    public async Task<IReadOnlyList<string>> RecipientsAsync(long id, IReadOnlyList<string> subscribers, bool atMostOnce, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(subscribers);
        if (subscribers.Count == 0)
        {
            return [];
        }

        await using var connection = await OpenAsync(cancellationToken);
        return (await connection.QueryAsync<string>(Command(atMostOnce ? MarkRecipientsSql : RecipientsSql,
            new { Id = id, Subscribers = JsonSerializer.Serialize(subscribers) }, cancellationToken))).AsList();
    }

    public async Task<LiveBroadcastReplay> PendingAsync(string subscriber, int max, int cap, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        var rows = (await connection.QueryAsync<PendingRow>(
            Command(PendingSql, new { Subscriber = subscriber, Max = max, Cap = cap }, cancellationToken))).AsList();
        return new LiveBroadcastReplay(
            rows.Where(r => r.Id is not null)
                .Select(r => new LivePending(r.Id!.Value, subscriber, r.Subject, r.Body, r.Data, r.ExpiresAt!.Value, AtMostOnce: false)).ToList(),
            rows.Sum(r => r.Capped));
    }

    public async Task<IReadOnlySet<LiveAck>> AckAsync(IReadOnlyList<LiveAck> acks, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(acks);
        if (acks.Count == 0)
        {
            return new HashSet<LiveAck>();
        }

        string json = JsonSerializer.Serialize(acks.Select(a => new { subscriber = a.Subscriber, id = a.Id }));
        await using var connection = await OpenAsync(cancellationToken);
        return (await connection.QueryAsync<(string Subscriber, long Id)>(Command(AckSql, new { Acks = json }, cancellationToken)))
            .Select(a => new LiveAck(a.Subscriber, a.Id)).ToHashSet();
    }

    public async Task<LiveBroadcastReport?> ReportAsync(long id, int first, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        var found = (await connection.QueryAsync<(string Topic, DateTimeOffset CreatedAt, DateTimeOffset ExpiresAt, bool AtMostOnce)>(
            Command(ReportSql, new { Id = id }, cancellationToken))).AsList();
        if (found.Count == 0)
        {
            return null;
        }

        var b = found[0];
        var tallies = await connection.QueryAsync<ReceiptTally>(Command(ReceiptTallySql, new { Id = id }, cancellationToken));
        var receipts = first == 0 ? [] : await connection.QueryAsync<ReceiptEntry>(
            Command(FirstReceiptsSql, new { Id = id, Limit = first }, cancellationToken));
        return new LiveBroadcastReport(b.Topic, b.CreatedAt, b.ExpiresAt, b.AtMostOnce, [.. tallies], [.. receipts]);
    }

    // A broadcast to send, or (Id null) how many expired past the cap; the null row sorts first.
    private sealed class PendingRow
    {
        public long? Id { get; set; }

        public string? Subject { get; set; }

        public string? Body { get; set; }

        public string? Data { get; set; }

        public DateTimeOffset? ExpiresAt { get; set; }

        public DateTimeOffset? CreatedAt { get; set; }

        public int Capped { get; set; }
    }

    private async Task<SqlConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        return connection;
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
