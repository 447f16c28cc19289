namespace Notifications.Client.PostgreSql;

/// <summary>
/// The audience registry's SQL on PostgreSQL: upserts with INSERT ... ON CONFLICT (one waits for a concurrent transaction's
/// row with the same key, then updates it or does nothing).
/// </summary>
internal sealed class PostgresRegistryDialect : IRegistryDialect
{
    public static readonly PostgresRegistryDialect Instance = new();

    public RegistrySql Sql(string schema) => new(
        UpsertSubscriberSql: $"""
            INSERT INTO "{schema}".subscriber (external_id, locale, time_zone) VALUES (@ExternalId, @Locale, @TimeZone)
            ON CONFLICT (external_id) DO UPDATE SET locale = EXCLUDED.locale, time_zone = EXCLUDED.time_zone, updated_at = now()
            """,
        FindSubscriberSql: $"""SELECT id FROM "{schema}".subscriber WHERE external_id = @ExternalId""",
        AddContactPointSql: $"""
            INSERT INTO "{schema}".contact_point AS c (subscriber_id, channel, address, app_id, last_seen_at)
            VALUES (@SubscriberId, @Channel, @Address, @AppId, @LastSeen)
            ON CONFLICT (subscriber_id, channel, address) DO UPDATE
                SET app_id = coalesce(EXCLUDED.app_id, c.app_id), last_seen_at = coalesce(EXCLUDED.last_seen_at, c.last_seen_at),
                    dead_at = NULL, dead_reason = NULL
            """,
        RemoveContactPointSql: $"""
            DELETE FROM "{schema}".contact_point WHERE subscriber_id = @SubscriberId AND channel = @Channel AND address = @Address
            """,
        EnsureTopicSql: $"""INSERT INTO "{schema}".topic (name) VALUES (@Topic) ON CONFLICT (name) DO NOTHING""",
        SubscribeSql: $"""
            INSERT INTO "{schema}".subscription (topic_id, subscriber_id)
            SELECT id, @SubscriberId FROM "{schema}".topic WHERE name = @Topic
            ON CONFLICT (topic_id, subscriber_id) DO NOTHING
            """,
        UnsubscribeSql: $"""
            DELETE FROM "{schema}".subscription
            WHERE subscriber_id = @SubscriberId AND topic_id = (SELECT id FROM "{schema}".topic WHERE name = @Topic)
            """,
        FindCategorySql: $"""SELECT critical FROM "{schema}".category WHERE name = @Category""",
        SetPreferenceSql: $"""
            INSERT INTO "{schema}".preference (subscriber_id, category, channel, enabled) VALUES (@SubscriberId, @Category, @Channel, @Enabled)
            ON CONFLICT (subscriber_id, category, channel) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()
            """);
}
