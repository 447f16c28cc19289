using Dapper;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The audience registry on PostgreSQL.</summary>
internal sealed class PostgresAudienceStore : IAudienceStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _putCategorySql;
    private readonly string _categoriesSql;
    private readonly string _categoryDefaultsSql;
    private readonly string _subscriberSql;
    private readonly string _contactPointsSql;
    private readonly string _topicsSql;
    private readonly string _preferencesSql;
    private readonly string _listTopicsSql;
    private readonly string _byAddressSql;
    private readonly string _deliveryTallySql;
    private readonly string _firstDeliveriesSql;
    private readonly string _setPreferenceSql;
    private readonly string _deleteSubscriberSql;

    public PostgresAudienceStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        _putCategorySql = $"""
            INSERT INTO "{s}".category (name, critical, description) VALUES (@Name, @Critical, @Description)
            ON CONFLICT (name) DO UPDATE SET critical = EXCLUDED.critical, description = EXCLUDED.description, updated_at = now();
            DELETE FROM "{s}".category_default WHERE category = @Name;
            INSERT INTO "{s}".category_default (category, channel, enabled)
            SELECT @Name, channel, enabled FROM unnest(@Channels::varchar[], @Enabled::boolean[]) AS d (channel, enabled)
            """;
        _categoriesSql = $"""SELECT name, critical, description, updated_at FROM "{s}".category ORDER BY name""";
        _categoryDefaultsSql = $"""SELECT category, channel, enabled FROM "{s}".category_default""";
        _subscriberSql = $"""SELECT id, external_id, locale, time_zone, created_at, updated_at FROM "{s}".subscriber WHERE external_id = @Id""";
        _contactPointsSql = $"""
            SELECT channel AS Channel, address AS Address, app_id AS AppId, last_seen_at AS LastSeenAt, dead_at AS DeadAt, dead_reason AS DeadReason
            FROM "{s}".contact_point WHERE subscriber_id = @Id ORDER BY channel, address
            """;
        _topicsSql = $"""
            SELECT t.name FROM "{s}".subscription AS x JOIN "{s}".topic AS t ON t.id = x.topic_id WHERE x.subscriber_id = @Id ORDER BY t.name
            """;
        _preferencesSql = $"""
            SELECT category AS Category, channel AS Channel, enabled AS Enabled FROM "{s}".preference WHERE subscriber_id = @Id ORDER BY category, channel
            """;
        // Keyset on topic_name_unique; each count reads at most cap + 1 entries of the subscription's primary key.
        _listTopicsSql = $"""
            SELECT t.name AS Name, t.created_at AS CreatedAt,
                   (SELECT count(*) FROM (SELECT 1 FROM "{s}".subscription AS x WHERE x.topic_id = t.id LIMIT @Cap + 1) AS y) AS Subscribers
            FROM "{s}".topic AS t WHERE @After::varchar IS NULL OR t.name > @After::varchar ORDER BY t.name LIMIT @Limit
            """;
        // contact_point_address (channel, address), probed once a channel.
        _byAddressSql = $"""
            SELECT DISTINCT s.external_id FROM "{s}".contact_point AS c JOIN "{s}".subscriber AS s ON s.id = c.subscriber_id
            WHERE c.channel IN ('email', 'push') AND c.address = @Address
            ORDER BY s.external_id LIMIT @Limit
            """;
        // A delivery's state: what the fan-out recorded instead of publishing it, else its own record, else in flight.
        string state = $"""
            CASE WHEN a.outcome <> 'published' THEN a.outcome
                 WHEN l.status IN ('sent', 'suppressed', 'opted_out') THEN l.status
                 WHEN EXISTS (SELECT FROM "{s}".dead_letter AS x WHERE x.notification_id = a.id) THEN 'dead_lettered'
                 WHEN l.status = 'sending' AND l.reason IS NOT NULL THEN 'maybe_sent'
                 ELSE 'in_flight' END
            """;
        _deliveryTallySql = $"""
            SELECT a.channel AS Channel, {state} AS State, count(*) AS Count
            FROM "{s}".audience_delivery AS a LEFT JOIN "{s}".delivery_log AS l ON l.notification_id = a.id
            WHERE a.parent_id = @Id GROUP BY 1, 2 ORDER BY 1, 2
            """;
        _firstDeliveriesSql = $"""
            SELECT a.id AS Id, sb.external_id AS Subscriber, a.channel AS Channel, a.address AS Address, {state} AS State
            FROM "{s}".audience_delivery AS a LEFT JOIN "{s}".delivery_log AS l ON l.notification_id = a.id
            LEFT JOIN "{s}".subscriber AS sb ON sb.id = a.subscriber_id
            WHERE a.parent_id = @Id ORDER BY a.subscriber_id, a.id LIMIT @Limit
            """;
        // Written only for a subscriber and a category that exist, and never as an opt-out of a critical one; the answer says which.
        _setPreferenceSql = $"""
            WITH sub AS (SELECT id FROM "{s}".subscriber WHERE external_id = @Id),
            cat AS (SELECT name, critical FROM "{s}".category WHERE name = @Category),
            put AS (
                INSERT INTO "{s}".preference (subscriber_id, category, channel, enabled)
                SELECT sub.id, cat.name, @Channel, @Enabled FROM sub CROSS JOIN cat WHERE @Enabled OR NOT cat.critical
                ON CONFLICT (subscriber_id, category, channel) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()
                RETURNING 1)
            SELECT EXISTS (SELECT 1 FROM sub) AS HasSubscriber, (SELECT critical FROM cat) AS Critical, EXISTS (SELECT 1 FROM put) AS Written
            """;
        // Every part of one statement sees the rows as they were before it: the counts are of what the cascade removes.
        _deleteSubscriberSql = $"""
            WITH gone AS (DELETE FROM "{s}".subscriber WHERE external_id = @Id RETURNING id)
            SELECT (SELECT count(*) FROM "{s}".contact_point AS c WHERE c.subscriber_id = gone.id)::int AS ContactPoints,
                   (SELECT count(*) FROM "{s}".subscription AS x WHERE x.subscriber_id = gone.id)::int AS Subscriptions,
                   (SELECT count(*) FROM "{s}".preference AS p WHERE p.subscriber_id = gone.id)::int AS Preferences
            FROM gone
            """;
    }


    public async Task PutCategoryAsync(
        string name, bool critical, string? description, IReadOnlyDictionary<string, bool> defaults, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await connection.ExecuteAsync(Command(_putCategorySql, new
        {
            Name = name, Critical = critical, Description = description,
            Channels = defaults.Keys.ToArray(), Enabled = defaults.Values.ToArray(),
        }, cancellationToken, transaction));
        await transaction.CommitAsync(cancellationToken);
    }

    public async Task<IReadOnlyList<AudienceCategory>> ListCategoriesAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await AudienceReads.CategoriesAsync(connection, _categoriesSql, _categoryDefaultsSql, (sql, p) => Command(sql, p, cancellationToken));
    }

    public async Task<SubscriberDetails?> FindSubscriberAsync(string externalId, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await AudienceReads.SubscriberAsync(
            connection, (_subscriberSql, _contactPointsSql, _topicsSql, _preferencesSql), externalId, (sql, p) => Command(sql, p, cancellationToken));
    }

    public async Task<IReadOnlyList<TopicEntry>> ListTopicsAsync(string? after, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return [.. await connection.QueryAsync<TopicEntry>(Command(_listTopicsSql, new { After = after, Limit = limit, Cap = IAudienceStore.SubscriberCountCap }, cancellationToken))];
    }

    public async Task<IReadOnlyList<string>> FindSubscribersByAddressAsync(string address, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return [.. await connection.QueryAsync<string>(Command(_byAddressSql, new { Address = address, Limit = limit }, cancellationToken))];
    }

    public async Task<PreferenceChange> SetPreferenceAsync(string externalId, string category, string channel, bool enabled, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var answer = await connection.QuerySingleAsync<PreferenceAnswer>(Command(
            _setPreferenceSql, new { Id = externalId, Category = category, Channel = channel, Enabled = enabled }, cancellationToken));
        return answer.Change;
    }

    public async Task<SubscriberErasure?> DeleteSubscriberAsync(string externalId, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.QuerySingleOrDefaultAsync<SubscriberErasure>(Command(_deleteSubscriberSql, new { Id = externalId }, cancellationToken));
    }

    public async Task<FanOutDeliveryReport> ListDeliveriesAsync(long parentId, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var tallies = await connection.QueryAsync<DeliveryTally>(Command(_deliveryTallySql, new { Id = parentId }, cancellationToken));
        var first = await connection.QueryAsync<DeliveryEntry>(Command(_firstDeliveriesSql, new { Id = parentId, Limit = limit }, cancellationToken));
        return new FanOutDeliveryReport([.. tallies], [.. first]);
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken, NpgsqlTransaction? transaction = null) =>
        new(sql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken);
}
