using System.Data.Common;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The fan-out stage's jobs and deliveries on PostgreSQL (db/postgres/030_fan_out.sql; docs/fan-out.md).</summary>
internal sealed class PostgresFanOutStore : FanOutStoreSteps
{
    private readonly NpgsqlDataSource _dataSource;

    public PostgresFanOutStore(NpgsqlDataSource dataSource, DatabaseOptions options)
        : base((int)options.CommandTimeout.TotalSeconds)
    {
        _dataSource = dataSource;
        string s = options.Schema;
        // As the outbox's claim: SKIP LOCKED passes over a job another producer is leasing at this instant.
        LeaseSql = $"""
            UPDATE "{s}".fanout_job SET lease_owner = @Owner, lease_until = now() + @Lease
            WHERE id = (SELECT id FROM "{s}".fanout_job
                        WHERE state = 'running' AND (lease_until IS NULL OR lease_until < now())
                        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id AS Id, audience AS Audience, channels AS Channels, category AS Category, parent AS Parent
            """;
        // A job the claim has just written, in its transaction (free unless it existed before the claim).
        TakeSql = $"""
            UPDATE "{s}".fanout_job SET lease_owner = @Owner, lease_until = now() + @Lease
            WHERE id = @Id AND state = 'running' AND (lease_until IS NULL OR lease_until < now())
            RETURNING "cursor" AS Cursor, page_end AS PageEnd
            """;
        RenewSql = $"""
            UPDATE "{s}".fanout_job SET lease_until = now() + @Lease
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running'
            RETURNING "cursor" AS Cursor, page_end AS PageEnd
            """;
        AgainSql = $"""
            SELECT id AS Id, subscriber_id AS SubscriberId, channel AS Channel, address AS Address, locale AS Locale FROM "{s}".audience_delivery
            WHERE parent_id = @Id AND subscriber_id > @Cursor AND subscriber_id <= @PageEnd AND outcome = 'published'
            ORDER BY id
            """;
        TopicSql = $"""SELECT id FROM "{s}".topic WHERE name = @Name""";
        TopicPageSql = PageStatement(s, $"""
            SELECT subscriber_id FROM "{s}".subscription WHERE topic_id = @TopicId AND subscriber_id > @Cursor
            ORDER BY subscriber_id LIMIT @PageSize
            """);
        SubscriberPageSql = PageStatement(s, $"""SELECT id AS subscriber_id FROM "{s}".subscriber WHERE external_id = @Name AND id > @Cursor""");
        EndSql = $"""
            UPDATE "{s}".fanout_job SET state = @State, reason = @Reason, finished_at = now(), lease_owner = NULL, lease_until = NULL
            WHERE id = @Id
            """;
        AdvanceSql = $"""
            UPDATE "{s}".fanout_job
            SET "cursor" = @PageEnd, page_end = NULL,
                state = CASE WHEN @Last THEN 'done' ELSE state END,
                finished_at = CASE WHEN @Last THEN now() END,
                lease_owner = CASE WHEN @Last THEN NULL ELSE lease_owner END,
                lease_until = CASE WHEN @Last THEN NULL ELSE now() + @Lease END
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running' AND page_end = @PageEnd
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

    protected override async Task<DbConnection> OpenAsync(CancellationToken cancellationToken) => await _dataSource.OpenConnectionAsync(cancellationToken);

    // An interval: now() + @Lease.
    protected override object Lease(TimeSpan lease) => lease;

    protected override object TopicName(string name) => name;

    protected override object PageParameters(FanOutJob job, long? topicId, string name, long cursor, int pageSize) => new
    {
        ParentId = job.Id, TopicId = topicId, Name = name, Cursor = cursor, PageSize = pageSize,
        Channels = AudienceAddress.ContactChannelsOf(job.Channels), Live = AudienceAddress.HasLive(job.Channels), job.Category,
    };

    /// <summary>
    /// One page written: the page's subscribers (<paramref name="page"/>: a query of <c>subscriber_id</c>), each joined to its
    /// live contact points of the job's channels — and, with live among them, the subscriber itself as the live channel's
    /// (its own id the address, no contact point) — the category's preference or default applied (a critical category and a
    /// category nobody made are always sent), as deliveries; a subscriber without one, one <c>no_contact</c> row. The job
    /// takes the page's end (its last subscriber id) and counts in the same statement (<see cref="FanOutStoreSteps"/>).
    /// </summary>
    private static string PageStatement(string s, string page) => $"""
        WITH page AS ({page}),
        written AS (
        INSERT INTO "{s}".audience_delivery (parent_id, subscriber_id, contact_point_id, channel, address, locale, outcome)
        SELECT @ParentId, p.subscriber_id, cp.id, cp.channel, cp.address, sb.locale,
               CASE WHEN cp.channel IS NULL THEN 'no_contact'
                    WHEN c.critical OR COALESCE(pr.enabled, d.enabled, true) THEN 'published'
                    ELSE 'opted_out' END
        FROM page AS p
        LEFT JOIN "{s}".subscriber AS sb ON sb.id = p.subscriber_id
        LEFT JOIN LATERAL (
            SELECT c.id, c.channel, c.address FROM "{s}".contact_point AS c
            WHERE c.subscriber_id = p.subscriber_id AND c.dead_at IS NULL AND c.channel = ANY(@Channels)
            UNION ALL
            SELECT NULL::bigint, 'live', sb.external_id WHERE @Live AND sb.id IS NOT NULL) AS cp ON true
        LEFT JOIN "{s}".category AS c ON c.name = @Category
        LEFT JOIN "{s}".preference AS pr ON pr.subscriber_id = p.subscriber_id AND pr.category = c.name AND pr.channel = cp.channel
        LEFT JOIN "{s}".category_default AS d ON d.category = c.name AND d.channel = cp.channel
        RETURNING id, subscriber_id, channel, address, locale, outcome),
        counted AS (
            SELECT max(subscriber_id) AS page_end, count(*) FILTER (WHERE outcome = 'published') AS published,
                   count(*) FILTER (WHERE outcome = 'opted_out') AS opted_out, count(*) FILTER (WHERE outcome = 'no_contact') AS no_contact
            FROM written),
        job AS (
            UPDATE "{s}".fanout_job AS j
            SET page_end = w.page_end, published = j.published + w.published, opted_out = j.opted_out + w.opted_out,
                no_contact = j.no_contact + w.no_contact
            FROM counted AS w
            WHERE j.id = @ParentId AND w.page_end IS NOT NULL)
        SELECT id AS Id, subscriber_id AS SubscriberId, channel AS Channel, address AS Address, locale AS Locale, outcome AS Outcome
        FROM written ORDER BY id
        """;
}
