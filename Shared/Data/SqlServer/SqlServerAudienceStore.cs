using System.Text.Json;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The audience registry on SQL Server.</summary>
internal sealed class SqlServerAudienceStore : IAudienceStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerAudienceStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // Read as UTC datetime2, the type PostgreSQL's timestamptz arrives as (one row type for both dialects).
        static string Utc(string column) => $"CAST(SWITCHOFFSET({column}, '+00:00') AS datetime2(3))";
        PutCategorySql = $"""
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            MERGE [{s}].[category] WITH (HOLDLOCK) AS t
            USING (SELECT @Name AS name) AS src ON t.name = src.name
            WHEN MATCHED THEN UPDATE SET critical = @Critical, description = @Description, updated_at = SYSUTCDATETIME()
            WHEN NOT MATCHED THEN INSERT (name, critical, description) VALUES (src.name, @Critical, @Description);
            DELETE FROM [{s}].[category_default] WHERE category = @Name;
            INSERT INTO [{s}].[category_default] (category, channel, enabled)
            SELECT @Name, d.channel, d.enabled FROM OPENJSON(@Defaults) WITH (channel varchar(8) '$.channel', enabled bit '$.enabled') AS d;
            COMMIT TRANSACTION;
            """;
        CategoriesSql = $"SELECT name, critical, description, {Utc("updated_at")} AS updated_at FROM [{s}].[category] ORDER BY name;";
        CategoryDefaultsSql = $"SELECT category, channel, enabled FROM [{s}].[category_default];";
        SubscriberSql = $"""
            SELECT id, external_id, locale, time_zone, {Utc("created_at")} AS created_at, {Utc("updated_at")} AS updated_at
            FROM [{s}].[subscriber] WHERE external_id = @Id;
            """;
        ContactPointsSql = $"""
            SELECT channel AS Channel, address AS Address, app_id AS AppId, {Utc("last_seen_at")} AS LastSeenAt, {Utc("dead_at")} AS DeadAt,
                   dead_reason AS DeadReason
            FROM [{s}].[contact_point] WHERE subscriber_id = @Id ORDER BY channel, address;
            """;
        TopicsSql = $"""
            SELECT t.name FROM [{s}].[subscription] AS x JOIN [{s}].[topic] AS t ON t.id = x.topic_id WHERE x.subscriber_id = @Id ORDER BY t.name;
            """;
        PreferencesSql = $"""
            SELECT category AS Category, channel AS Channel, enabled AS Enabled FROM [{s}].[preference] WHERE subscriber_id = @Id ORDER BY category, channel;
            """;
        // Keyset on the topic's unique name; each count reads at most cap + 1 entries of the subscription's primary key.
        ListTopicsSql = $"""
            SELECT TOP (@Limit) t.name AS Name, {Utc("t.created_at")} AS CreatedAt,
                   (SELECT COUNT_BIG(*) FROM (SELECT TOP (@Cap + 1) x.subscriber_id FROM [{s}].[subscription] AS x WHERE x.topic_id = t.id) AS y) AS Subscribers
            FROM [{s}].[topic] AS t WHERE @After IS NULL OR t.name > @After ORDER BY t.name;
            """;
        // IX_contact_point_address (channel, address), probed once a channel.
        ByAddressSql = $"""
            SELECT DISTINCT TOP (@Limit) s.external_id FROM [{s}].[contact_point] AS c JOIN [{s}].[subscriber] AS s ON s.id = c.subscriber_id
            WHERE c.channel IN ('email', 'push') AND c.address = @Address
            ORDER BY s.external_id;
            """;
        // As PostgreSQL's: what the fan-out recorded instead of publishing it, else the delivery's own record, else in flight.
        string state = $"""
            CASE WHEN a.outcome <> 'published' THEN a.outcome
                 WHEN l.status IN ('sent', 'suppressed', 'opted_out') THEN l.status
                 WHEN EXISTS (SELECT 1 FROM [{s}].[dead_letter] AS x WHERE x.notification_id = a.id) THEN 'dead_lettered'
                 WHEN l.status = 'sending' AND l.reason IS NOT NULL THEN 'maybe_sent'
                 ELSE 'in_flight' END
            """;
        DeliveryTallySql = $"""
            SELECT t.Channel, t.State, COUNT_BIG(*) AS Count
            FROM (SELECT a.channel AS Channel, {state} AS State
                  FROM [{s}].[audience_delivery] AS a LEFT JOIN [{s}].[delivery_log] AS l ON l.notification_id = a.id
                  WHERE a.parent_id = @Id) AS t
            GROUP BY t.Channel, t.State ORDER BY t.Channel, t.State;
            """;
        FirstDeliveriesSql = $"""
            SELECT TOP (@Limit) a.id AS Id, sb.external_id AS Subscriber, a.channel AS Channel, a.address AS Address, {state} AS State
            FROM [{s}].[audience_delivery] AS a LEFT JOIN [{s}].[delivery_log] AS l ON l.notification_id = a.id
            LEFT JOIN [{s}].[subscriber] AS sb ON sb.id = a.subscriber_id
            WHERE a.parent_id = @Id ORDER BY a.subscriber_id, a.id;
            """;
        // As PostgreSQL's: written only for a subscriber and a category that exist, never as an opt-out of a critical one.
        SetPreferenceSql = $"""
            SET XACT_ABORT ON;
            DECLARE @sid bigint = (SELECT id FROM [{s}].[subscriber] WHERE external_id = @Id);
            DECLARE @critical bit = (SELECT critical FROM [{s}].[category] WHERE name = @Category);
            DECLARE @written int = 0;
            IF @sid IS NOT NULL AND @critical IS NOT NULL AND (@Enabled = 1 OR @critical = 0)
            BEGIN
                MERGE [{s}].[preference] WITH (HOLDLOCK) AS t
                USING (SELECT @sid AS subscriber_id, @Category AS category, @Channel AS channel) AS src
                    ON t.subscriber_id = src.subscriber_id AND t.category = src.category AND t.channel = src.channel
                WHEN MATCHED THEN UPDATE SET enabled = @Enabled, updated_at = SYSUTCDATETIME()
                WHEN NOT MATCHED THEN INSERT (subscriber_id, category, channel, enabled) VALUES (src.subscriber_id, src.category, src.channel, @Enabled);
                SET @written = @@ROWCOUNT;
            END;
            SELECT CAST(CASE WHEN @sid IS NULL THEN 0 ELSE 1 END AS bit) AS HasSubscriber, @critical AS Critical,
                   CAST(CASE WHEN @written > 0 THEN 1 ELSE 0 END AS bit) AS Written;
            """;
        // The counts of what the cascade removes, then the delete, in one transaction holding the subscriber's row.
        DeleteSubscriberSql = $"""
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @sid bigint = (SELECT id FROM [{s}].[subscriber] WITH (UPDLOCK, HOLDLOCK) WHERE external_id = @Id);
            IF @sid IS NOT NULL
                SELECT (SELECT COUNT(*) FROM [{s}].[contact_point] WHERE subscriber_id = @sid) AS ContactPoints,
                       (SELECT COUNT(*) FROM [{s}].[subscription] WHERE subscriber_id = @sid) AS Subscriptions,
                       (SELECT COUNT(*) FROM [{s}].[preference] WHERE subscriber_id = @sid) AS Preferences;
            DELETE FROM [{s}].[subscriber] WHERE id = @sid;
            COMMIT;
            """;
    }

    internal string PutCategorySql { get; }

    internal string CategoriesSql { get; }

    internal string CategoryDefaultsSql { get; }

    internal string SubscriberSql { get; }

    internal string ContactPointsSql { get; }

    internal string TopicsSql { get; }

    internal string PreferencesSql { get; }

    internal string ListTopicsSql { get; }

    internal string ByAddressSql { get; }

    internal string DeliveryTallySql { get; }

    internal string FirstDeliveriesSql { get; }

    internal string SetPreferenceSql { get; }

    internal string DeleteSubscriberSql { get; }

    public async Task PutCategoryAsync(
        string name, bool critical, string? description, IReadOnlyDictionary<string, bool> defaults, CancellationToken cancellationToken)
    {
        string json = JsonSerializer.Serialize(defaults.Select(d => new Dictionary<string, object> { ["channel"] = d.Key, ["enabled"] = d.Value }));
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(Command(PutCategorySql, new { Name = name, Critical = critical, Description = description, Defaults = json }, cancellationToken));
    }

    public async Task<IReadOnlyList<AudienceCategory>> ListCategoriesAsync(CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await AudienceReads.CategoriesAsync(connection, CategoriesSql, CategoryDefaultsSql, (sql, p) => Command(sql, p, cancellationToken));
    }

    public async Task<SubscriberDetails?> FindSubscriberAsync(string externalId, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await AudienceReads.SubscriberAsync(
            connection, (SubscriberSql, ContactPointsSql, TopicsSql, PreferencesSql), externalId, (sql, p) => Command(sql, p, cancellationToken));
    }

    public async Task<IReadOnlyList<TopicEntry>> ListTopicsAsync(string? after, int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return [.. await connection.QueryAsync<TopicEntry>(Command(ListTopicsSql, new { After = after, Limit = limit, Cap = IAudienceStore.SubscriberCountCap }, cancellationToken))];
    }

    public async Task<IReadOnlyList<string>> FindSubscribersByAddressAsync(string address, int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return [.. await connection.QueryAsync<string>(Command(ByAddressSql, new { Address = address, Limit = limit }, cancellationToken))];
    }

    public async Task<FanOutDeliveryReport> ListDeliveriesAsync(long parentId, int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var tallies = await connection.QueryAsync<DeliveryTally>(Command(DeliveryTallySql, new { Id = parentId }, cancellationToken));
        var first = await connection.QueryAsync<DeliveryEntry>(Command(FirstDeliveriesSql, new { Id = parentId, Limit = limit }, cancellationToken));
        return new FanOutDeliveryReport([.. tallies], [.. first]);
    }

    public async Task<PreferenceChange> SetPreferenceAsync(string externalId, string category, string channel, bool enabled, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var answer = await connection.QuerySingleAsync<PreferenceAnswer>(Command(SetPreferenceSql, new
        {
            Id = RegistryKeys.SubscriberId(externalId),
            Category = RegistryKeys.Category(category),
            Channel = RegistryKeys.Channel(channel),
            Enabled = enabled,
        }, cancellationToken));
        return answer.Change;
    }

    public async Task<SubscriberErasure?> DeleteSubscriberAsync(string externalId, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.QuerySingleOrDefaultAsync<SubscriberErasure>(Command(DeleteSubscriberSql, new { Id = RegistryKeys.SubscriberId(externalId) }, cancellationToken));
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
