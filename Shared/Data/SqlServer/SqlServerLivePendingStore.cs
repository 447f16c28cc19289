using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>live_pending</c> table on SQL Server.</summary>
internal sealed class SqlServerLivePendingStore : ILivePendingStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerLivePendingStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // UPDLOCK + HOLDLOCK on the id's key range: a redelivered copy written at the same moment waits, then finds the row.
        // Then the cap: the subscriber's newest @Cap unexpired rows stay, the new one among them.
        AddSql = $"""
            SET NOCOUNT ON;
            INSERT INTO [{s}].[live_pending] (notification_id, subscriber_id, subject, body, data, expires_at, at_most_once)
            SELECT @Id, @Subscriber, @Subject, @Body, @Data, @ExpiresAt, @AtMostOnce
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[live_pending] WITH (UPDLOCK, HOLDLOCK) WHERE notification_id = @Id);
            DECLARE @added int = @@ROWCOUNT, @expired int = 0;
            IF @added = 1
            BEGIN
                UPDATE [{s}].[live_pending] SET expires_at = SYSDATETIMEOFFSET()
                WHERE notification_id IN (
                    SELECT notification_id FROM [{s}].[live_pending]
                    WHERE subscriber_id = @Subscriber AND (expires_at IS NULL OR expires_at > SYSDATETIMEOFFSET())
                    ORDER BY notification_id DESC OFFSET @Cap ROWS);
                SET @expired = @@ROWCOUNT;
            END;
            SELECT @added AS Added, @expired AS Expired;
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
            DELETE FROM [{s}].[live_pending] WHERE subscriber_id = @Subscriber AND notification_id = @Id;
            """;
        FindSql = $"""
            SELECT subscriber_id AS Subscriber, created_at AS CreatedAt, expires_at AS ExpiresAt, sent_at AS SentAt, at_most_once AS AtMostOnce
            FROM [{s}].[live_pending] WHERE notification_id = @Id;
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

    internal string AgeSql { get; }

    internal string RecordLiveAckedSql { get; }

    public async Task<LivePendingState?> FindAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.QuerySingleOrDefaultAsync<LivePendingState>(Command(FindSql, new { Id = id }, cancellationToken));
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

    public async Task<LiveAdded> AddAsync(LivePending row, int cap, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(row);
        await using var connection = new SqlConnection(_connectionString);
        var (added, expired) = await connection.QuerySingleAsync<(int, int)>(Command(AddSql, new
        {
            row.Id, row.Subscriber, row.Subject, row.Body, row.Data, row.ExpiresAt, row.AtMostOnce, Cap = cap,
        }, cancellationToken));
        return new LiveAdded(added == 1, expired);
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

    public async Task<bool> AckAsync(string subscriber, long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(Command(AckSql, new { Subscriber = subscriber, Id = id }, cancellationToken)) == 1;
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
