namespace Notifications.IntegrationTests.Security;

/// <summary>
/// Every permission each database role of db/sqlserver/repeatable/90_roles.sql (the five) holds (<c>sys.database_permissions</c>: granted, denied
/// or granted with grant option) on the objects and columns of one schema, on the database and on any schema; what
/// <c>public</c> (every user's role) holds there; memberships of other roles (<c>db_datareader</c> would read every
/// table); and ownership. One line per permission, e.g. <c>object outbox: INSERT</c>, <c>column outbox.id: SELECT</c>.
/// Its T-SQL is parsed by TSqlParserTests (the unit tests link this file).
/// </summary>
internal static class SqlServerRoleGrants
{
    /// <summary>The rows (Role, Entry) for the schema <c>@Schema</c>.</summary>
    public const string Sql = """
        SELECT g.name AS Role,
               CASE p.class
                   WHEN 0 THEN N'database'
                   WHEN 1 THEN CASE WHEN p.minor_id = 0 THEN N'object ' + o.name ELSE N'column ' + o.name + N'.' + c.name END
                   WHEN 3 THEN N'schema ' + SCHEMA_NAME(p.major_id)
                   ELSE p.class_desc + N' ' + CAST(p.major_id AS nvarchar(20))
               END + N': ' + p.permission_name
               + CASE p.state WHEN 'G' THEN N'' ELSE N' (' + p.state_desc + N')' END AS Entry
        FROM sys.database_permissions AS p
        JOIN sys.database_principals AS g ON g.principal_id = p.grantee_principal_id
        LEFT JOIN sys.objects AS o ON p.class = 1 AND o.object_id = p.major_id
        LEFT JOIN sys.columns AS c ON p.class = 1 AND c.object_id = p.major_id AND c.column_id = p.minor_id
        WHERE g.name IN (N'notifications_app', N'notifications_producer', N'notifications_consumer', N'notifications_admin', N'notifications_unsubscribe', N'notifications_gateway', N'notifications_bounces', N'public')
          AND (p.class <> 1 OR o.schema_id = SCHEMA_ID(@Schema))
          AND (g.name <> N'public' OR p.class = 1 OR (p.class = 3 AND p.major_id = SCHEMA_ID(@Schema)))
        UNION ALL
        SELECT m.name, N'member of ' + r.name
        FROM sys.database_role_members AS rm
        JOIN sys.database_principals AS m ON m.principal_id = rm.member_principal_id
        JOIN sys.database_principals AS r ON r.principal_id = rm.role_principal_id
        WHERE m.name IN (N'notifications_app', N'notifications_producer', N'notifications_consumer', N'notifications_admin', N'notifications_unsubscribe', N'notifications_gateway', N'notifications_bounces')
        UNION ALL
        SELECT g.name, N'owner of schema ' + s.name
        FROM sys.schemas AS s JOIN sys.database_principals AS g ON g.principal_id = s.principal_id
        WHERE g.name IN (N'notifications_app', N'notifications_producer', N'notifications_consumer', N'notifications_admin', N'notifications_unsubscribe', N'notifications_gateway', N'notifications_bounces')
        UNION ALL
        SELECT g.name, N'owner of object ' + o.name
        FROM sys.objects AS o JOIN sys.database_principals AS g ON g.principal_id = o.principal_id
        WHERE g.name IN (N'notifications_app', N'notifications_producer', N'notifications_consumer', N'notifications_admin', N'notifications_unsubscribe', N'notifications_gateway', N'notifications_bounces');
        """;

    // The audience registry's tables (025), all of which the admin tool may edit. Declared before the allowlist that uses it.
    private static readonly string[] Registry = ["subscriber", "contact_point", "topic", "subscription", "category", "category_default", "preference"];

    /// <summary>The allowlist by role name: what 90_roles.sql grants; <c>public</c> nothing here.</summary>
    public static readonly IReadOnlyDictionary<string, string[]> Allowed = new Dictionary<string, string[]>(StringComparer.Ordinal)
    {
        ["notifications_app"] =
        [
            "object outbox: INSERT", "column outbox.id: SELECT", .. Object("idempotency_key", "SELECT", "INSERT"), "object notification_status: SELECT",
            .. Object("subscriber", "SELECT", "INSERT", "UPDATE"), .. Object("contact_point", "SELECT", "INSERT", "UPDATE", "DELETE"),
            .. Object("topic", "SELECT", "INSERT"), .. Object("subscription", "SELECT", "INSERT", "DELETE"), .. Object("category", "SELECT"),
            .. Object("preference", "SELECT", "INSERT", "UPDATE", "DELETE"),
            "object attachment: INSERT", .. Column("template", "SELECT", "name", "locale", "version", "variables"),
        ],
        ["notifications_producer"] =
        [
            .. Object("outbox", "SELECT", "DELETE"), .. Object("rejected", "SELECT", "INSERT", "UPDATE"),
            // The fan-out stage (030): its jobs and deliveries, the deliveries' ids (UPDATE on the sequence), the registry read.
            .. Object("fanout_job", "SELECT", "INSERT", "UPDATE"), .. Object("audience_delivery", "SELECT", "INSERT"), "object fanout_delivery_id: UPDATE",
            .. Column("subscriber", "SELECT", "id", "external_id", "locale"), .. Column("contact_point", "SELECT", "id", "subscriber_id", "channel", "address", "dead_at"),
            .. Column("topic", "SELECT", "id", "name"), .. Object("subscription", "SELECT"),
            .. Object("category", "SELECT"), .. Object("category_default", "SELECT"), .. Object("preference", "SELECT"),
        ],
        ["notifications_consumer"] =
        [
            .. Object("delivery_log", "SELECT", "INSERT", "UPDATE", "DELETE"), .. Object("dead_letter", "SELECT", "INSERT", "DELETE"),
            .. Object("rate_limit", "SELECT", "INSERT", "UPDATE"), .. Object("rate_limit_send", "SELECT", "INSERT", "UPDATE", "DELETE"),
            .. Object("suppression", "SELECT", "INSERT", "UPDATE"), .. Object("template", "SELECT"),
            .. Object("webhook_endpoint", "SELECT", "UPDATE"), .. Object("retention", "SELECT", "UPDATE"), .. Object("idempotency_key", "SELECT", "DELETE"),
            .. Object("fanout_job", "SELECT", "DELETE"), .. Object("audience_delivery", "SELECT", "DELETE"),
            .. Column("contact_point", "SELECT", "channel", "address", "dead_at", "subscriber_id"), .. Column("contact_point", "UPDATE", "dead_at", "dead_reason"),
            .. Column("subscriber", "SELECT", "id", "external_id"), .. Object("category", "SELECT"), .. Object("category_default", "SELECT"), .. Object("preference", "SELECT"),
            .. Object("attachment", "SELECT", "DELETE"), .. Object("live_pending", "SELECT", "INSERT", "DELETE"), .. Column("live_pending", "UPDATE", "expires_at"),
            .. Object("live_broadcast", "SELECT", "INSERT", "DELETE"), .. Column("topic", "SELECT", "id", "name"),
            .. Object("notification_outcome", "SELECT", "DELETE"),
            "object outbox: INSERT", "column outbox.id: SELECT", .. Object("outcome_event", "SELECT", "INSERT", "DELETE"), .. Object("webhook_event_subscription", "SELECT"),
            .. Object("delivery_attempt", "SELECT", "INSERT", "DELETE"),
        ],
        ["notifications_admin"] =
        [
            .. Object("outbox", "SELECT", "DELETE"), .. Object("delivery_log", "SELECT", "DELETE"), .. Object("delivery_attempt", "SELECT", "DELETE"), .. Object("dead_letter", "SELECT", "DELETE"),
            .. Object("idempotency_key", "SELECT", "DELETE"), .. Object("retention", "SELECT", "UPDATE"), .. Object("suppression", "SELECT", "INSERT", "UPDATE"),
            .. Object("template", "SELECT", "INSERT"), .. Object("webhook_endpoint", "SELECT", "INSERT", "UPDATE"), "object notification_status: SELECT",
            .. Registry.SelectMany(t => Object(t, "SELECT", "INSERT", "UPDATE", "DELETE")),
            .. Object("attachment", "SELECT", "DELETE"),
            .. Object("fanout_job", "SELECT", "DELETE"), .. Object("audience_delivery", "SELECT", "DELETE"), .. Object("live_pending", "SELECT", "DELETE"),
            .. Object("live_broadcast", "SELECT", "DELETE"), .. Object("live_broadcast_receipt", "SELECT", "DELETE"),
            .. Object("rejected", "SELECT"), .. Object("admin_job", "SELECT", "INSERT", "UPDATE"), .. Object("rate_limit", "SELECT"),
            .. Object("notification_outcome", "SELECT", "DELETE"),
            .. Object("webhook_event_subscription", "SELECT", "INSERT", "DELETE"), .. Object("outcome_event", "SELECT", "DELETE"),
        ],
        ["notifications_unsubscribe"] =
        [
            "object suppression: INSERT", .. Column("suppression", "SELECT", "address", "scope", "removed_at"),
            .. Column("suppression", "UPDATE", "reason", "scope", "detail", "since", "changed_at", "removed_at"),
            "object opt_out_by_link: EXECUTE",
        ],
        ["notifications_gateway"] =
        [
            .. Object("live_pending", "SELECT", "DELETE"), .. Column("live_pending", "UPDATE", "sent_at", "expiry_reported_at"),
            .. Object("live_broadcast", "SELECT"), .. Object("live_broadcast_receipt", "SELECT", "INSERT"),
            .. Column("live_broadcast_receipt", "UPDATE", "sent_at", "acked_at"),
            .. Column("subscriber", "SELECT", "id", "external_id"), .. Column("subscription", "SELECT", "topic_id", "subscriber_id", "created_at"),
            .. Object("category", "SELECT"), .. Object("category_default", "SELECT"), .. Object("preference", "SELECT"),
            "object outbox: INSERT", "column outbox.id: SELECT", .. Object("outcome_event", "SELECT", "INSERT"), .. Object("webhook_event_subscription", "SELECT"),
            .. Column("webhook_endpoint", "SELECT", "name", "disabled_at"),
        ],
        ["notifications_bounces"] =
        [
            .. Column("delivery_log", "SELECT", "notification_id"), .. Object("notification_outcome", "SELECT", "INSERT"),
            "object suppression: INSERT", .. Column("suppression", "SELECT", "address", "scope", "removed_at"),
            .. Column("suppression", "UPDATE", "reason", "scope", "detail", "since", "changed_at", "removed_at"),
            "object outbox: INSERT", "column outbox.id: SELECT", .. Object("outcome_event", "SELECT", "INSERT"), .. Object("webhook_event_subscription", "SELECT"),
            .. Column("webhook_endpoint", "SELECT", "name", "disabled_at"),
        ],
        ["public"] = [],
    };

    /// <summary>What <paramref name="role"/> holds beyond the allowlist, and what of it it lacks, in words ("" when neither).</summary>
    public static string Differences(string role, IEnumerable<string> held)
    {
        var extra = held.Except(Allowed[role]).ToList();
        var missing = Allowed[role].Except(held).ToList();
        return extra.Count + missing.Count == 0 ? "" : $"{role}: beyond the allowlist [{string.Join("; ", extra)}], missing [{string.Join("; ", missing)}]";
    }

    private static string[] Object(string name, params string[] permissions) => [.. permissions.Select(p => $"object {name}: {p}")];

    private static string[] Column(string table, string permission, params string[] columns) =>
        [.. columns.Select(c => $"column {table}.{c}: {permission}")];
}
