namespace Notifications.Client.SqlServer;

/// <summary>
/// The audience registry's T-SQL. Each upsert takes UPDLOCK + HOLDLOCK on its key (or the key's range when absent), as the
/// outbox's idempotent insert does: a concurrent transaction with the same key waits, then finds the row, instead of
/// failing on the unique key. Parameters of the binary-collated varchar columns come as varchar (DbType.AnsiString), so
/// their indexes are sought without a conversion.
/// </summary>
internal sealed class SqlServerRegistryDialect : IRegistryDialect
{
    public static readonly SqlServerRegistryDialect Instance = new();

    public RegistrySql Sql(string schema) => new(
        UpsertSubscriberSql: $"""
            MERGE [{schema}].[subscriber] WITH (HOLDLOCK) AS t
            USING (SELECT @ExternalId AS external_id) AS src ON t.external_id = src.external_id
            WHEN MATCHED THEN UPDATE SET locale = @Locale, time_zone = @TimeZone, updated_at = SYSUTCDATETIME()
            WHEN NOT MATCHED THEN INSERT (external_id, locale, time_zone) VALUES (src.external_id, @Locale, @TimeZone);
            """,
        FindSubscriberSql: $"SELECT id FROM [{schema}].[subscriber] WHERE external_id = @ExternalId;",
        AddContactPointSql: $"""
            MERGE [{schema}].[contact_point] WITH (HOLDLOCK) AS t
            USING (SELECT @SubscriberId AS subscriber_id, @Channel AS channel, @Address AS address) AS src
                ON t.subscriber_id = src.subscriber_id AND t.channel = src.channel AND t.address = src.address
            WHEN MATCHED THEN UPDATE SET app_id = COALESCE(@AppId, t.app_id), last_seen_at = COALESCE(@LastSeen, t.last_seen_at),
                                         dead_at = NULL, dead_reason = NULL
            WHEN NOT MATCHED THEN INSERT (subscriber_id, channel, address, app_id, last_seen_at)
                VALUES (src.subscriber_id, src.channel, src.address, @AppId, @LastSeen);
            """,
        RemoveContactPointSql: $"""
            DELETE FROM [{schema}].[contact_point] WHERE subscriber_id = @SubscriberId AND channel = @Channel AND address = @Address;
            """,
        EnsureTopicSql: $"""
            IF NOT EXISTS (SELECT 1 FROM [{schema}].[topic] WITH (UPDLOCK, HOLDLOCK) WHERE name = @Topic)
                INSERT INTO [{schema}].[topic] (name) VALUES (@Topic);
            """,
        SubscribeSql: $"""
            INSERT INTO [{schema}].[subscription] (topic_id, subscriber_id)
            SELECT t.id, @SubscriberId FROM [{schema}].[topic] AS t
            WHERE t.name = @Topic
              AND NOT EXISTS (SELECT 1 FROM [{schema}].[subscription] AS s WITH (UPDLOCK, HOLDLOCK)
                              WHERE s.topic_id = t.id AND s.subscriber_id = @SubscriberId);
            """,
        UnsubscribeSql: $"""
            DELETE s FROM [{schema}].[subscription] AS s JOIN [{schema}].[topic] AS t ON t.id = s.topic_id
            WHERE s.subscriber_id = @SubscriberId AND t.name = @Topic;
            """,
        FindCategorySql: $"SELECT critical FROM [{schema}].[category] WHERE name = @Category;",
        SetPreferenceSql: $"""
            MERGE [{schema}].[preference] WITH (HOLDLOCK) AS t
            USING (SELECT @SubscriberId AS subscriber_id, @Category AS category, @Channel AS channel) AS src
                ON t.subscriber_id = src.subscriber_id AND t.category = src.category AND t.channel = src.channel
            WHEN MATCHED THEN UPDATE SET enabled = @Enabled, updated_at = SYSUTCDATETIME()
            WHEN NOT MATCHED THEN INSERT (subscriber_id, category, channel, enabled) VALUES (src.subscriber_id, src.category, src.channel, @Enabled);
            """);
}
