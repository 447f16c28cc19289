using System.Text.Json;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>live_pending</c> table on SQL Server.</summary>
internal sealed class SqlServerLivePendingStore : ILivePendingStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;
    private readonly OutcomeEvents _events;

    public SqlServerLivePendingStore(DatabaseOptions options)
    {
        _events = new OutcomeEvents(options);
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // The rows travel as one JSON array read by OPENJSON (ids unique: the caller's batch is de-duplicated). UPDLOCK +
        // HOLDLOCK on each id's key range: a redelivered copy written at the same moment waits, then finds the row. Then the
        // cap, in the same transaction, seeing the rows just added: each of their subscribers keeps its newest @Cap unexpired.
        AddSql = $"""
            SET NOCOUNT ON;
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            INSERT INTO [{s}].[live_pending] (notification_id, subscriber_id, subject, body, data, expires_at, at_most_once)
            SELECT r.id, r.subscriber, r.subject, r.body, r.data, r.expires_at, r.at_most_once
            FROM OPENJSON(@Rows) WITH (
                id bigint '$.id', subscriber varchar(128) '$.subscriber', subject nvarchar(998) '$.subject', body nvarchar(max) '$.body',
                data nvarchar(max) '$.data', expires_at datetimeoffset(3) '$.expiresAt', at_most_once bit '$.atMostOnce') AS r
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[live_pending] WITH (UPDLOCK, HOLDLOCK) WHERE notification_id = r.id);
            UPDATE p SET expires_at = SYSDATETIMEOFFSET()
            OUTPUT INSERTED.subscriber_id
            FROM [{s}].[live_pending] AS p
            JOIN (
                SELECT notification_id, ROW_NUMBER() OVER (PARTITION BY subscriber_id ORDER BY notification_id DESC) AS newer
                FROM [{s}].[live_pending]
                WHERE subscriber_id IN (SELECT r.subscriber FROM OPENJSON(@Rows) WITH (subscriber varchar(128) '$.subscriber') AS r)
                  AND (expires_at IS NULL OR expires_at > SYSDATETIMEOFFSET())) AS ranked ON ranked.notification_id = p.notification_id
            WHERE ranked.newer > @Cap;
            COMMIT TRANSACTION;
            """;
        PendingSql = $"""
            SELECT TOP (@Max) notification_id AS Id, subscriber_id AS Subscriber, subject AS Subject, body AS Body, data AS Data,
                   expires_at AS ExpiresAt, at_most_once AS AtMostOnce
            FROM [{s}].[live_pending]
            WHERE subscriber_id = @Subscriber AND (expires_at IS NULL OR expires_at > SYSDATETIMEOFFSET())
              AND (at_most_once = 0 OR sent_at IS NULL)
            ORDER BY notification_id;
            """;
        // The ids travel as one JSON array read by OPENJSON: one message's, or one connect's replay (at most MaxPending).
        MarkSentSql = $"""
            UPDATE [{s}].[live_pending] SET sent_at = SYSDATETIMEOFFSET()
            OUTPUT INSERTED.notification_id
            WHERE notification_id IN (SELECT j.id FROM OPENJSON(@Ids) WITH (id bigint '$') AS j) AND sent_at IS NULL;
            """;
        AckSql = $"""
            DELETE p OUTPUT DELETED.subscriber_id AS Subscriber, DELETED.notification_id AS Id
            FROM [{s}].[live_pending] AS p
            JOIN OPENJSON(@Acks) WITH (subscriber varchar(128) '$.subscriber', id bigint '$.id') AS a
              ON p.subscriber_id = a.subscriber AND p.notification_id = a.id;
            """;
        // From where the last sweep ended on IX_live_pending_expires; rows another gateway's sweep holds are left to it (READPAST).
        ReportExpiredSql = $"""
            SET NOCOUNT ON;
            WITH due AS (
                SELECT TOP (@Max) notification_id, subscriber_id, expires_at, expiry_reported_at
                FROM [{s}].[live_pending] WITH (UPDLOCK, READPAST, ROWLOCK)
                WHERE expires_at >= @Since AND expires_at <= SYSDATETIMEOFFSET() AND expiry_reported_at IS NULL
                ORDER BY expires_at)
            UPDATE due SET expiry_reported_at = SYSDATETIMEOFFSET()
            OUTPUT INSERTED.notification_id AS Id, INSERTED.subscriber_id AS Subscriber, INSERTED.expires_at AS ExpiresAt;
            """;
        FindSql = $"""
            SELECT subscriber_id AS Subscriber, created_at AS CreatedAt, expires_at AS ExpiresAt, sent_at AS SentAt, at_most_once AS AtMostOnce
            FROM [{s}].[live_pending] WHERE notification_id = @Id;
            """;
        // Per subscriber an index range of IX_live_pending_subscriber, stopping at the cap; the ids travel as a JSON array.
        CountPendingSql = $"""
            SELECT s.id AS Subscriber,
                   (SELECT COUNT(*) FROM (SELECT TOP (@Cap + 1) p.notification_id FROM [{s}].[live_pending] AS p
                                          WHERE p.subscriber_id = s.id AND (p.expires_at IS NULL OR p.expires_at > SYSDATETIMEOFFSET())
                                            AND (p.at_most_once = 0 OR p.sent_at IS NULL)) AS x) AS Pending
            FROM (SELECT DISTINCT j.id FROM OPENJSON(@Subscribers) WITH (id varchar(128) '$') AS j) AS s;
            """;
        AgeSql = $"""
            SELECT DATEDIFF_BIG(millisecond, created_at, SYSDATETIMEOFFSET()) FROM [{s}].[live_pending] WHERE notification_id = @Id;
            """;
        RecordLiveAckedSql = $"""
            INSERT INTO [{s}].[delivery_log] (notification_id, status, created_at, attempts, reason)
            SELECT @Id, 'live_acked', @CreatedAt, @Attempts, @Reason
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[delivery_log] WITH (UPDLOCK, HOLDLOCK) WHERE notification_id = @Id);
            """;
    }

    internal string FindSql { get; }

    internal string ReportExpiredSql { get; }

    internal string CountPendingSql { get; }

    internal string AgeSql { get; }

    internal string RecordLiveAckedSql { get; }

    public async Task<LivePendingState?> FindAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.QuerySingleOrDefaultAsync<LivePendingState>(Command(FindSql, new { Id = id }, cancellationToken));
    }

    public async Task<IReadOnlyDictionary<string, int>> CountPendingAsync(IReadOnlyList<string> subscribers, int cap, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<(string Subscriber, int Pending)>(
            Command(CountPendingSql, new { Subscribers = JsonSerializer.Serialize(subscribers), Cap = cap }, cancellationToken));
        return rows.Where(r => r.Pending > 0).ToDictionary(r => r.Subscriber, r => r.Pending, StringComparer.Ordinal);
    }

    public async Task<TimeSpan?> AgeAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        long? milliseconds = await connection.ExecuteScalarAsync<long?>(Command(AgeSql, new { Id = id }, cancellationToken));
        return milliseconds is { } ms ? TimeSpan.FromMilliseconds(ms) : null;
    }

    public async Task RecordLiveAckedAsync(long id, DateTimeOffset createdAt, int attempts, string reason, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(Command(RecordLiveAckedSql, new { Id = id, CreatedAt = createdAt, Attempts = attempts, Reason = reason }, cancellationToken));
    }

    internal string AddSql { get; }

    internal string PendingSql { get; }

    internal string MarkSentSql { get; }

    internal string AckSql { get; }

    public async Task<IReadOnlyList<LiveCapped>> AddAsync(IReadOnlyList<LivePending> rows, int cap, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(rows);
        if (rows.Count == 0)
        {
            return [];
        }

        string json = JsonSerializer.Serialize(rows.Select(r => new
        {
            id = r.Id, subscriber = r.Subscriber, subject = r.Subject, body = r.Body, data = r.Data, expiresAt = r.ExpiresAt, atMostOnce = r.AtMostOnce,
        }));
        await using var connection = new SqlConnection(_connectionString);
        var capped = await connection.QueryAsync<string>(Command(AddSql, new { Rows = json, Cap = cap }, cancellationToken));
        return capped.CountBy(s => s).Select(c => new LiveCapped(c.Key, c.Value)).ToList();
    }

    public async Task<IReadOnlyList<LivePending>> PendingAsync(string subscriber, int max, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QueryAsync<LivePending>(Command(PendingSql, new { Subscriber = subscriber, Max = max }, cancellationToken))).AsList();
    }

    public async Task<IReadOnlyList<long>> MarkSentAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ids);
        if (ids.Count == 0)
        {
            return [];
        }

        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QueryAsync<long>(Command(MarkSentSql, new { Ids = "[" + string.Join(',', ids) + "]" }, cancellationToken))).AsList();
    }

    public async Task<IReadOnlySet<LiveAck>> AckAsync(IReadOnlyList<LiveAck> acks, bool withEvents, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(acks);
        string json = JsonSerializer.Serialize(acks.Select(a => new { subscriber = a.Subscriber, id = a.Id }));
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var transaction = withEvents ? await connection.BeginTransactionAsync(cancellationToken) : null;
        var gone = (await connection.QueryAsync<(string Subscriber, long Id)>(Command(AckSql, new { Acks = json }, cancellationToken, transaction)))
            .Select(g => new LiveAck(g.Subscriber, g.Id)).ToHashSet();
        if (transaction is not null)
        {
            await LiveOutcomeEvents.CommitAsync(_events, connection, transaction, LiveOutcomeEvents.Acked(gone, DateTimeOffset.UtcNow), cancellationToken);
        }

        return gone;
    }

    public async Task<int> ReportExpiredAsync(DateTimeOffset since, int max, bool withEvents, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var expired = (await connection.QueryAsync<LiveExpiry>(Command(ReportExpiredSql, new { Since = since, Max = max }, cancellationToken, transaction))).AsList();
        await LiveOutcomeEvents.CommitAsync(_events, connection, transaction, withEvents ? LiveOutcomeEvents.Expired(expired) : [], cancellationToken);
        return expired.Count;
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken, System.Data.Common.DbTransaction? transaction = null) =>
        new(sql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken);
}
