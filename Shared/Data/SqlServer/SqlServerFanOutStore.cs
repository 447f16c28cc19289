using System.Data.Common;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The fan-out stage's jobs and deliveries on SQL Server (db/sqlserver/030_fan_out.sql; docs/fan-out.md).</summary>
internal sealed class SqlServerFanOutStore : FanOutStoreSteps
{
    private readonly string _connectionString;

    public SqlServerFanOutStore(DatabaseOptions options)
        : base((int)options.CommandTimeout.TotalSeconds)
    {
        _connectionString = options.ConnectionString;
        string s = options.Schema;
        // As the outbox's claim: READPAST passes over a job another producer is leasing at this instant; the ordered CTE
        // makes it the oldest.
        LeaseSql = $"""
            WITH job AS (
                SELECT TOP (1) id, lease_owner, lease_until, audience, channels, category, parent
                FROM [{s}].[fanout_job] WITH (ROWLOCK, READPAST, UPDLOCK)
                WHERE state = 'running' AND (lease_until IS NULL OR lease_until < SYSDATETIMEOFFSET())
                ORDER BY id)
            UPDATE job SET lease_owner = @Owner, lease_until = DATEADD(millisecond, @Lease, SYSDATETIMEOFFSET())
            OUTPUT inserted.id AS Id, inserted.audience AS Audience, inserted.channels AS Channels, inserted.category AS Category,
                   inserted.parent AS Parent;
            """;
        // A job the claim has just written, in its transaction (free unless it existed before the claim).
        TakeSql = $"""
            UPDATE [{s}].[fanout_job] SET lease_owner = @Owner, lease_until = DATEADD(millisecond, @Lease, SYSDATETIMEOFFSET())
            OUTPUT inserted.[cursor] AS [Cursor], inserted.page_end AS PageEnd
            WHERE id = @Id AND state = 'running' AND (lease_until IS NULL OR lease_until < SYSDATETIMEOFFSET());
            """;
        RenewSql = $"""
            UPDATE [{s}].[fanout_job] SET lease_until = DATEADD(millisecond, @Lease, SYSDATETIMEOFFSET())
            OUTPUT inserted.[cursor] AS [Cursor], inserted.page_end AS PageEnd
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running';
            """;
        AgainSql = $"""
            SELECT id AS Id, subscriber_id AS SubscriberId, channel AS Channel, address AS Address, locale AS Locale FROM [{s}].[audience_delivery]
            WHERE parent_id = @Id AND subscriber_id > @Cursor AND subscriber_id <= @PageEnd AND outcome = 'published'
            ORDER BY id;
            """;
        TopicSql = $"SELECT id FROM [{s}].[topic] WHERE name = @Name;";
        TopicPageSql = PageStatement(s, $"""
            SELECT TOP (@PageSize) subscriber_id FROM [{s}].[subscription] WHERE topic_id = @TopicId AND subscriber_id > @Cursor
            ORDER BY subscriber_id
            """);
        SubscriberPageSql = PageStatement(s, $"SELECT id FROM [{s}].[subscriber] WHERE external_id = @Name AND id > @Cursor");
        EndSql = $"""
            UPDATE [{s}].[fanout_job]
            SET state = @State, reason = @Reason, finished_at = SYSDATETIMEOFFSET(), lease_owner = NULL, lease_until = NULL
            WHERE id = @Id;
            """;
        AdvanceSql = $"""
            UPDATE [{s}].[fanout_job]
            SET [cursor] = @PageEnd, page_end = NULL,
                state = CASE WHEN @Last = 1 THEN 'done' ELSE state END,
                finished_at = CASE WHEN @Last = 1 THEN SYSDATETIMEOFFSET() END,
                lease_owner = CASE WHEN @Last = 1 THEN NULL ELSE lease_owner END,
                lease_until = CASE WHEN @Last = 1 THEN NULL ELSE DATEADD(millisecond, @Lease, SYSDATETIMEOFFSET()) END
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running' AND page_end = @PageEnd;
            """;
    }

    internal override string LeaseSql { get; }

    internal override string TakeSql { get; }

    internal override string RenewSql { get; }

    internal override string AgainSql { get; }

    internal override string TopicSql { get; }

    internal override string TopicPageSql { get; }

    internal override string SubscriberPageSql { get; }

    internal override string EndSql { get; }

    internal override string AdvanceSql { get; }

    protected override async Task<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(_connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            return connection;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    // Milliseconds: DATEADD(millisecond, @Lease, SYSDATETIMEOFFSET()).
    protected override object Lease(TimeSpan lease) => (int)lease.TotalMilliseconds;

    protected override object TopicName(string name) => new DbString { Value = name, IsAnsi = true, Length = AudienceRules.MaxTopicNameLength };

    // The keys as varchar like their columns (RegistryKeys); the channels as two values (the same one twice for one).
    protected override object PageParameters(FanOutJob job, long? topicId, string name, long cursor, int pageSize)
    {
        // Live has no contact point: a set of live alone matches none (no contact point's channel is 'live').
        string[] channels = AudienceAddress.ContactChannelsOf(job.Channels) is { Length: > 0 } contact ? contact : [NotificationChannels.Live];
        return new
        {
            ParentId = job.Id, TopicId = topicId, Name = RegistryKeys.SubscriberId(name), Cursor = cursor, PageSize = pageSize,
            Channel1 = RegistryKeys.Channel(channels[0]), Channel2 = RegistryKeys.Channel(channels[^1]), Live = AudienceAddress.HasLive(job.Channels),
            Category = job.Category is null ? null : RegistryKeys.Category(job.Category),
        };
    }

    /// <summary>
    /// One page written, as PostgreSQL's: the page's subscribers first into a table variable (a statement that takes ids from
    /// a sequence, here through the column's default, may not also hold a TOP), then each joined to its live contact
    /// points of the job's channels (and, with live among them, the subscriber itself as the live channel's), the category's
    /// preference or default applied, as deliveries; a subscriber without one, one <c>no_contact</c> row. The deliveries
    /// written go into a second table variable, from which the job takes the page's end and counts in the same batch.
    /// </summary>
    private static string PageStatement(string s, string page) => $"""
        DECLARE @page TABLE (subscriber_id bigint NOT NULL PRIMARY KEY);
        DECLARE @written TABLE (id bigint NOT NULL PRIMARY KEY, subscriber_id bigint NOT NULL, channel varchar(8) NULL,
            address nvarchar(320) COLLATE Latin1_General_100_BIN2 NULL, locale nvarchar(35) NULL, outcome varchar(16) NOT NULL);
        INSERT INTO @page (subscriber_id) {page};
        INSERT INTO [{s}].[audience_delivery] (parent_id, subscriber_id, contact_point_id, channel, address, locale, outcome)
        OUTPUT inserted.id, inserted.subscriber_id, inserted.channel, inserted.address, inserted.locale, inserted.outcome
        INTO @written (id, subscriber_id, channel, address, locale, outcome)
        SELECT @ParentId, p.subscriber_id, cp.id, cp.channel, cp.address, sb.locale,
               CASE WHEN cp.channel IS NULL THEN 'no_contact'
                    WHEN c.critical = 1 OR COALESCE(pr.enabled, d.enabled, CAST(1 AS bit)) = 1 THEN 'published'
                    ELSE 'opted_out' END
        FROM @page AS p
        LEFT JOIN [{s}].[subscriber] AS sb ON sb.id = p.subscriber_id
        OUTER APPLY (
            SELECT x.id, x.channel, x.address FROM [{s}].[contact_point] AS x
            WHERE x.subscriber_id = p.subscriber_id AND x.dead_at IS NULL AND x.channel IN (@Channel1, @Channel2)
            UNION ALL
            SELECT CAST(NULL AS bigint), CAST('live' AS varchar(8)), sb.external_id WHERE @Live = 1 AND sb.id IS NOT NULL) AS cp
        LEFT JOIN [{s}].[category] AS c ON c.name = @Category
        LEFT JOIN [{s}].[preference] AS pr ON pr.subscriber_id = p.subscriber_id AND pr.category = c.name AND pr.channel = cp.channel
        LEFT JOIN [{s}].[category_default] AS d ON d.category = c.name AND d.channel = cp.channel;
        UPDATE j
        SET page_end = w.page_end, published = j.published + w.published, opted_out = j.opted_out + w.opted_out,
            no_contact = j.no_contact + w.no_contact
        FROM [{s}].[fanout_job] AS j
        CROSS JOIN (SELECT MAX(subscriber_id) AS page_end, COUNT(CASE WHEN outcome = 'published' THEN 1 END) AS published,
                           COUNT(CASE WHEN outcome = 'opted_out' THEN 1 END) AS opted_out,
                           COUNT(CASE WHEN outcome = 'no_contact' THEN 1 END) AS no_contact
                    FROM @written) AS w
        WHERE j.id = @ParentId AND w.page_end IS NOT NULL;
        SELECT id AS Id, subscriber_id AS SubscriberId, channel AS Channel, address AS Address, locale AS Locale, outcome AS Outcome
        FROM @written ORDER BY id;
        """;
}
