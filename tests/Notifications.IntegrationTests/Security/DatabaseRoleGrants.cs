using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// Every privilege each database role of db/postgres/repeatable/90_roles.sql (the five) holds, as the server answers for the role itself
/// (<c>has_table_privilege</c>, <c>has_column_privilege</c>, <c>has_sequence_privilege</c>, <c>has_function_privilege</c>,
/// <c>has_schema_privilege</c>, <c>has_database_privilege</c>: what it holds directly, through a role it is a member of, or
/// through PUBLIC — more than <c>information_schema.role_table_grants</c>, <c>column_privileges</c> and
/// <c>routine_privileges</c> list, which show only grants the asking user takes part in), plus what it could get otherwise:
/// default privileges naming it or PUBLIC, memberships, role attributes and ownership. One line per privilege, e.g.
/// <c>table notifications.outbox: INSERT</c>, <c>column notifications.outbox.id: SELECT</c> (only where the table-wide
/// privilege is absent).
/// </summary>
internal static class DatabaseRoleGrants
{
    /// <summary>The rows of every role (<c>@Roles</c>) over the relations and functions of <c>@Schemas</c>.</summary>
    public const string Sql = """
        WITH roles (name) AS (SELECT unnest(@Roles::text[])),
        schemas AS (SELECT oid, nspname FROM pg_namespace WHERE nspname = ANY (@Schemas::text[])),
        rels AS (
            SELECT c.oid, s.nspname || '.' || c.relname AS name, c.relkind, c.relowner
            FROM pg_class AS c JOIN schemas AS s ON s.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S'))
        SELECT r.name AS role, 'table ' || t.name || ': ' || p.priv AS entry
        FROM roles AS r CROSS JOIN rels AS t CROSS JOIN unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) AS p (priv)
        WHERE t.relkind <> 'S' AND has_table_privilege(r.name, t.oid, p.priv)
        UNION ALL
        SELECT r.name, 'column ' || t.name || '.' || a.attname || ': ' || p.priv
        FROM roles AS r CROSS JOIN rels AS t
        JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
        CROSS JOIN unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']) AS p (priv)
        WHERE t.relkind <> 'S' AND NOT has_table_privilege(r.name, t.oid, p.priv) AND has_column_privilege(r.name, t.oid, a.attnum, p.priv)
        UNION ALL
        SELECT r.name, 'sequence ' || t.name || ': ' || p.priv
        FROM roles AS r CROSS JOIN rels AS t CROSS JOIN unnest(ARRAY['USAGE', 'SELECT', 'UPDATE']) AS p (priv)
        WHERE t.relkind = 'S' AND has_sequence_privilege(r.name, t.oid, p.priv)
        UNION ALL
        SELECT r.name, 'function ' || s.nspname || '.' || f.proname || '(' || pg_get_function_identity_arguments(f.oid) || '): EXECUTE'
        FROM roles AS r CROSS JOIN pg_proc AS f JOIN schemas AS s ON s.oid = f.pronamespace
        WHERE has_function_privilege(r.name, f.oid, 'EXECUTE')
        UNION ALL
        SELECT r.name, 'schema ' || s.nspname || ': ' || p.priv
        FROM roles AS r CROSS JOIN schemas AS s CROSS JOIN unnest(ARRAY['USAGE', 'CREATE']) AS p (priv)
        WHERE has_schema_privilege(r.name, s.oid, p.priv)
        UNION ALL
        SELECT r.name, 'database: ' || p.priv
        FROM roles AS r CROSS JOIN unnest(ARRAY['CREATE', 'CONNECT', 'TEMPORARY']) AS p (priv)
        WHERE has_database_privilege(r.name, current_database(), p.priv)
        UNION ALL
        SELECT r.name, 'default privilege of ' || d.defaclrole::regrole::text || coalesce(' in ' || d.defaclnamespace::regnamespace::text, '')
               || ' on ' || d.defaclobjtype::text || ': ' || x.privilege_type
        FROM pg_default_acl AS d CROSS JOIN aclexplode(d.defaclacl) AS x
        JOIN roles AS r ON x.grantee = 0 OR x.grantee = to_regrole(r.name)
        UNION ALL
        SELECT r.name, 'member of ' || g.rolname
        FROM roles AS r JOIN pg_auth_members AS m ON m.member = to_regrole(r.name) JOIN pg_roles AS g ON g.oid = m.roleid
        UNION ALL
        SELECT r.name, 'attribute ' || v.attr
        FROM roles AS r JOIN pg_roles AS o ON o.rolname = r.name
        CROSS JOIN LATERAL (VALUES ('LOGIN', o.rolcanlogin), ('SUPERUSER', o.rolsuper), ('CREATEROLE', o.rolcreaterole),
            ('CREATEDB', o.rolcreatedb), ('REPLICATION', o.rolreplication), ('BYPASSRLS', o.rolbypassrls)) AS v (attr, held)
        WHERE v.held
        UNION ALL
        SELECT r.name, 'owner of ' || t.name FROM roles AS r JOIN rels AS t ON t.relowner = to_regrole(r.name)
        UNION ALL
        SELECT r.name, 'owner of schema ' || s.nspname FROM roles AS r JOIN pg_namespace AS s ON s.nspowner = to_regrole(r.name)
        UNION ALL
        SELECT r.name, 'owner of function ' || f.oid::regprocedure::text FROM roles AS r JOIN pg_proc AS f ON f.proowner = to_regrole(r.name)
        """;

    // PostgreSQL's defaults for PUBLIC, and the schema's USAGE every role gets. Declared before the allowlist that uses it.
    // The audience registry's tables (025), all of which the admin tool may edit. Declared before the allowlist that uses it.
    private static readonly string[] Registry = ["subscriber", "contact_point", "topic", "subscription", "category", "category_default", "preference"];

    private static readonly string[] Everyone = ["database: CONNECT", "database: TEMPORARY", "schema public: USAGE", "schema notifications: USAGE"];

    /// <summary>
    /// The allowlist: what 90_roles.sql grants each role, and PostgreSQL's defaults for PUBLIC (CONNECT and TEMPORARY on
    /// the database, USAGE on the public schema). Nothing else: no owner, no member of another role, no attribute.
    /// </summary>
    public static readonly IReadOnlyDictionary<DatabaseRole, string[]> Allowed = new Dictionary<DatabaseRole, string[]>
    {
        [DatabaseRole.App] =
        [
            .. Everyone,
            "table notifications.outbox: INSERT", "column notifications.outbox.id: SELECT", "sequence notifications.outbox_id_seq: USAGE",
            "table notifications.idempotency_key: INSERT", "column notifications.idempotency_key.idempotency_key: SELECT",
            "column notifications.idempotency_key.notification_id: SELECT", "function notifications.notification_status(p_id bigint): EXECUTE",
            .. Table("subscriber", "SELECT", "INSERT", "UPDATE"), .. Table("contact_point", "SELECT", "INSERT", "UPDATE", "DELETE"),
            .. Table("topic", "SELECT", "INSERT"), .. Table("subscription", "SELECT", "INSERT", "DELETE"), .. Table("category", "SELECT"),
            .. Table("preference", "SELECT", "INSERT", "UPDATE", "DELETE"),
            "table notifications.attachment: INSERT",
            // The template check at enqueue (024): the versions' variables, never the sources.
            "column notifications.template.name: SELECT", "column notifications.template.locale: SELECT",
            "column notifications.template.version: SELECT", "column notifications.template.variables: SELECT",
        ],
        [DatabaseRole.Producer] =
        [
            .. Everyone,
            .. Table("outbox", "SELECT", "DELETE"), "column notifications.outbox.created_at: UPDATE",
            .. Table("rejected", "SELECT", "INSERT", "UPDATE"),
            // The fan-out stage (030): its jobs and deliveries, the deliveries' ids, and the registry read, never written.
            .. Table("fanout_job", "SELECT", "INSERT", "UPDATE"), .. Table("audience_delivery", "SELECT", "INSERT"),
            "sequence notifications.fanout_delivery_id: USAGE",
            .. Column("subscriber", "SELECT", "id", "external_id", "locale"), .. Column("contact_point", "SELECT", "id", "subscriber_id", "channel", "address", "dead_at"),
            .. Column("topic", "SELECT", "id", "name"), .. Column("subscription", "SELECT", "topic_id", "subscriber_id"),
            .. Table("category", "SELECT"), .. Table("category_default", "SELECT"), .. Table("preference", "SELECT"),
        ],
        [DatabaseRole.Consumer] =
        [
            .. Everyone,
            .. Table("delivery_log", "SELECT", "INSERT", "UPDATE", "DELETE"),
            .. Table("dead_letter", "SELECT", "INSERT", "DELETE"), "column notifications.dead_letter.dead_lettered_at: UPDATE",
            .. Table("rate_limit", "SELECT", "INSERT", "UPDATE"), .. Table("rate_limit_send", "SELECT", "INSERT", "UPDATE", "DELETE"),
            .. Table("suppression", "SELECT", "INSERT", "UPDATE"),
            .. Table("template", "SELECT"), .. Table("webhook_endpoint", "SELECT", "UPDATE"), .. Table("retention", "SELECT", "UPDATE"),
            .. Table("idempotency_key", "SELECT", "DELETE"), "column notifications.idempotency_key.created_at: UPDATE",
            .. Column("contact_point", "SELECT", "channel", "address", "dead_at", "subscriber_id"), .. Column("contact_point", "UPDATE", "dead_at", "dead_reason"),
            .. Column("subscriber", "SELECT", "id", "external_id"), .. Table("category", "SELECT"), .. Table("category_default", "SELECT"), .. Table("preference", "SELECT"),
            .. Table("attachment", "SELECT", "DELETE"), .. Table("fanout_job", "SELECT", "DELETE"), .. Table("audience_delivery", "SELECT", "DELETE"),
            .. Table("live_pending", "SELECT", "INSERT", "DELETE"), "column notifications.live_pending.expires_at: UPDATE",
            // A live row to a topic: one broadcast row (042), its topic looked up by name.
            .. Table("live_broadcast", "SELECT", "INSERT", "DELETE"), .. Column("topic", "SELECT", "id", "name"),
            .. Table("notification_outcome", "SELECT", "DELETE"),
            // Outcome events (038): a webhook outbox row and its outcome_event row; the subscriptions read.
            "table notifications.outbox: INSERT", "sequence notifications.outbox_id_seq: USAGE",
            .. Table("outcome_event", "SELECT", "INSERT", "DELETE"), .. Table("webhook_event_subscription", "SELECT"),
            // A notification's story (039): failed attempts written on the retry path, deleted by the retention cleanup.
            .. Table("delivery_attempt", "SELECT", "INSERT", "DELETE"),
        ],
        [DatabaseRole.Admin] =
        [
            .. Everyone,
            .. Table("outbox", "SELECT", "DELETE"),
            .. Table("delivery_log", "SELECT", "DELETE"), "column notifications.delivery_log.updated_at: UPDATE", .. Table("delivery_attempt", "SELECT", "DELETE"),
            .. Table("dead_letter", "SELECT", "DELETE"), "column notifications.dead_letter.dead_lettered_at: UPDATE",
            .. Table("idempotency_key", "SELECT", "DELETE"), "column notifications.idempotency_key.created_at: UPDATE",
            .. Table("retention", "SELECT", "UPDATE"), .. Table("suppression", "SELECT", "INSERT", "UPDATE"), .. Table("template", "SELECT", "INSERT"),
            .. Table("webhook_endpoint", "SELECT", "INSERT", "UPDATE"), "function notifications.notification_status(p_id bigint): EXECUTE",
            .. Registry.SelectMany(t => Table(t, "SELECT", "INSERT", "UPDATE", "DELETE")),
            .. Table("attachment", "SELECT", "DELETE"),
            .. Table("fanout_job", "SELECT", "DELETE"), .. Table("audience_delivery", "SELECT", "DELETE"), .. Table("live_pending", "SELECT", "DELETE"),
            .. Table("live_broadcast", "SELECT", "DELETE"), .. Table("live_broadcast_receipt", "SELECT", "DELETE"),
            .. Table("rejected", "SELECT"), .. Table("admin_job", "SELECT", "INSERT", "UPDATE"), .. Table("rate_limit", "SELECT"),
            .. Table("notification_outcome", "SELECT", "DELETE"),
            .. Table("webhook_event_subscription", "SELECT", "INSERT", "DELETE"), .. Table("outcome_event", "SELECT", "DELETE"),
        ],
        [DatabaseRole.Unsubscribe] =
        [
            .. Everyone,
            .. Column("suppression", "INSERT", "address", "reason", "scope", "detail"),
            .. Column("suppression", "SELECT", "address", "reason", "scope", "detail", "removed_at"),
            .. Column("suppression", "UPDATE", "reason", "scope", "detail", "since", "changed_at", "removed_at"),
            "function notifications.opt_out_by_link(p_channel character varying, p_address character varying, p_category character varying): EXECUTE",
        ],
        [DatabaseRole.Gateway] =
        [
            .. Everyone,
            .. Table("live_pending", "SELECT", "DELETE"), .. Column("live_pending", "UPDATE", "sent_at", "expiry_reported_at"),
            // Broadcasts to topics (042): read with the topic's subscribers and their live preferences; acks and marks as receipts.
            .. Table("live_broadcast", "SELECT"), .. Table("live_broadcast_receipt", "SELECT", "INSERT"),
            .. Column("live_broadcast_receipt", "UPDATE", "sent_at", "acked_at"),
            .. Column("subscriber", "SELECT", "id", "external_id"), .. Column("subscription", "SELECT", "topic_id", "subscriber_id", "created_at"),
            .. Table("category", "SELECT"), .. Table("category_default", "SELECT"), .. Table("preference", "SELECT"),
            // Outcome events (041): an ack and an expiry are ones, in their transaction.
            "table notifications.outbox: INSERT", "sequence notifications.outbox_id_seq: USAGE",
            .. Table("outcome_event", "SELECT", "INSERT"), .. Table("webhook_event_subscription", "SELECT"),
            .. Column("webhook_endpoint", "SELECT", "name", "disabled_at"),
        ],
        [DatabaseRole.Bounces] =
        [
            .. Everyone,
            "column notifications.delivery_log.notification_id: SELECT",
            .. Table("notification_outcome", "SELECT", "INSERT"),
            .. Column("suppression", "INSERT", "address", "reason", "scope", "detail"),
            .. Column("suppression", "SELECT", "address", "reason", "scope", "detail", "removed_at"),
            .. Column("suppression", "UPDATE", "reason", "scope", "detail", "since", "changed_at", "removed_at"),
            // Outcome events (038): a bounce or complaint recorded is one, in the report's transaction.
            "table notifications.outbox: INSERT", "sequence notifications.outbox_id_seq: USAGE",
            .. Table("outcome_event", "SELECT", "INSERT"), .. Table("webhook_event_subscription", "SELECT"),
            .. Column("webhook_endpoint", "SELECT", "name", "disabled_at"),
        ],
    };

    /// <summary>Each role's privileges in the product's schema and the public one, in the database of <paramref name="connection"/>.</summary>
    public static async Task<Dictionary<DatabaseRole, List<string>>> ReadAsync(NpgsqlConnection connection, NpgsqlTransaction? transaction = null)
    {
        var roles = Enum.GetValues<DatabaseRole>();
        var rows = await connection.QueryAsync<(string Role, string Entry)>(Sql,
            new { Roles = roles.Select(TestRoles.RoleName).ToArray(), Schemas = new[] { TestDatabase.Schema, "public" } }, transaction);
        return roles.ToDictionary(r => r, r => rows.Where(row => row.Role == TestRoles.RoleName(r)).Select(row => row.Entry).Order(StringComparer.Ordinal).ToList());
    }

    /// <summary>What <paramref name="role"/> holds beyond the allowlist, and what of it it lacks, in words ("" when neither).</summary>
    public static string Differences(DatabaseRole role, IReadOnlyCollection<string> held)
    {
        var extra = held.Except(Allowed[role]).ToList();
        var missing = Allowed[role].Except(held).ToList();
        return extra.Count + missing.Count == 0 ? ""
            : $"{TestRoles.RoleName(role)}: beyond the allowlist [{string.Join("; ", extra)}], missing [{string.Join("; ", missing)}]";
    }

    private static string[] Table(string table, params string[] privileges) =>
        [.. privileges.Select(p => $"table {TestDatabase.Schema}.{table}: {p}")];

    private static string[] Column(string table, string privilege, params string[] columns) =>
        [.. columns.Select(c => $"column {TestDatabase.Schema}.{table}.{c}: {privilege}")];
}
