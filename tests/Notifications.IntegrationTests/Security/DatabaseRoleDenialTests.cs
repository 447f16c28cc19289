using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// What each database role must not do (db/postgres/repeatable/90_roles.sql, docs/security.md), tried as a login in that role
/// on the real test database: every statement is refused with 42501 insufficient_privilege. The statements touch no
/// row (WHERE false, or rolled back), so a grant that slipped in shows as a failure and harms nothing.
/// </summary>
[Collection("services")]
public sealed class DatabaseRoleDenialTests
{
    private const string S = TestDatabase.Schema;

    public static TheoryData<DatabaseRole, string> Denied() => new()
    {
        // The business app: enqueue and ask the status, nothing else.
        { DatabaseRole.App, $"SELECT recipient, body FROM {S}.outbox" },
        { DatabaseRole.App, $"DELETE FROM {S}.outbox WHERE false" },
        { DatabaseRole.App, $"UPDATE {S}.outbox SET subject = subject WHERE false" },
        { DatabaseRole.App, $"SELECT * FROM {S}.delivery_log" },
        { DatabaseRole.App, $"INSERT INTO {S}.delivery_log (notification_id, status) VALUES (-1, 'sent')" },
        { DatabaseRole.App, $"SELECT * FROM {S}.dead_letter" },
        { DatabaseRole.App, $"SELECT * FROM {S}.suppression" },
        { DatabaseRole.App, $"SELECT * FROM {S}.webhook_endpoint" },
        { DatabaseRole.App, $"DELETE FROM {S}.idempotency_key WHERE false" },
        { DatabaseRole.App, $"TRUNCATE {S}.outbox" },
        // The consumer: never the outbox, never the rejects.
        { DatabaseRole.Consumer, $"DELETE FROM {S}.outbox WHERE false" },
        { DatabaseRole.Consumer, $"SELECT id FROM {S}.outbox" },
        // It inserts outcome events' outbox rows (038), never changes one.
        { DatabaseRole.Consumer, $"UPDATE {S}.outbox SET subject = subject WHERE false" },
        { DatabaseRole.Consumer, $"UPDATE {S}.outcome_event SET endpoint = endpoint WHERE false" },
        { DatabaseRole.Consumer, $"INSERT INTO {S}.rejected (id, recipient, subject, body, created_at, reason) VALUES (-1, 'a', 's', 'b', now(), 'r')" },
        { DatabaseRole.Consumer, $"INSERT INTO {S}.template (name, locale, version, subject, text_body) VALUES ('t', 'en', 1, 's', 'b')" },
        { DatabaseRole.Consumer, $"INSERT INTO {S}.webhook_endpoint (name, url, secret) VALUES ('w', 'https://example.com', 's')" },
        { DatabaseRole.Consumer, $"SELECT * FROM {S}.notification_status(1)" },
        // The producer: claims and rejects; never the delivery log or dead letters.
        { DatabaseRole.Producer, $"INSERT INTO {S}.delivery_log (notification_id, status) VALUES (-1, 'sent')" },
        { DatabaseRole.Producer, $"SELECT * FROM {S}.delivery_log" },
        { DatabaseRole.Producer, $"INSERT INTO {S}.dead_letter (notification_id, reason, attempts) VALUES (-1, 'r', 1)" },
        { DatabaseRole.Producer, $"INSERT INTO {S}.outbox (recipient, subject, body) VALUES ('a@example.com', 's', 'b')" },
        { DatabaseRole.Producer, $"UPDATE {S}.outbox SET subject = subject WHERE false" },
        { DatabaseRole.Producer, $"UPDATE {S}.suppression SET reason = reason WHERE false" },
        { DatabaseRole.Producer, $"SELECT * FROM {S}.webhook_endpoint" },
        // The admin tool: reads and removes, never enqueues, never records a delivery or a dead letter.
        { DatabaseRole.Admin, $"INSERT INTO {S}.outbox (recipient, subject, body) VALUES ('a@example.com', 's', 'b')" },
        { DatabaseRole.Admin, $"UPDATE {S}.outbox SET subject = subject WHERE false" },
        { DatabaseRole.Admin, $"INSERT INTO {S}.delivery_log (notification_id, status) VALUES (-1, 'sent')" },
        { DatabaseRole.Admin, $"UPDATE {S}.delivery_log SET status = 'sent' WHERE false" },
        { DatabaseRole.Admin, $"INSERT INTO {S}.dead_letter (notification_id, reason, attempts) VALUES (-1, 'r', 1)" },
        { DatabaseRole.Admin, $"UPDATE {S}.rate_limit SET tat_us = tat_us WHERE false" },
        { DatabaseRole.Admin, $"INSERT INTO {S}.rejected (id, recipient, subject, body, created_at, reason) VALUES (-1, 'a', 's', 'b', now(), 'r')" },
        { DatabaseRole.Admin, $"TRUNCATE {S}.delivery_log" },
        // The unsubscribe worker (the internet-facing one): add or revive a suppression entry, nothing else.
        { DatabaseRole.Unsubscribe, $"SELECT * FROM {S}.suppression" },
        { DatabaseRole.Unsubscribe, $"UPDATE {S}.suppression SET address = address WHERE false" },
        { DatabaseRole.Unsubscribe, $"DELETE FROM {S}.suppression WHERE false" },
        { DatabaseRole.Unsubscribe, $"SELECT id FROM {S}.outbox" },
        { DatabaseRole.Unsubscribe, $"SELECT * FROM {S}.delivery_log" },
        { DatabaseRole.Unsubscribe, $"INSERT INTO {S}.outbox (recipient, subject, body) VALUES ('a@example.com', 's', 'b')" },
        { DatabaseRole.Unsubscribe, $"SELECT * FROM {S}.webhook_endpoint" },
        { DatabaseRole.Unsubscribe, $"SELECT * FROM {S}.notification_status(1)" },
        { DatabaseRole.Unsubscribe, $"TRUNCATE {S}.suppression" },
        // Its opt-out by a link goes through opt_out_by_link (SECURITY DEFINER): no registry table of its own, no other role runs it.
        { DatabaseRole.Unsubscribe, $"SELECT address FROM {S}.contact_point" },
        { DatabaseRole.Unsubscribe, $"SELECT * FROM {S}.preference" },
        { DatabaseRole.Unsubscribe, $"INSERT INTO {S}.preference (subscriber_id, category, channel, enabled) VALUES (1, 'marketing', 'email', false)" },
        { DatabaseRole.App, $"SELECT {S}.opt_out_by_link('email', 'a@example.com', 'marketing')" },
        { DatabaseRole.Consumer, $"SELECT {S}.opt_out_by_link('email', 'a@example.com', 'marketing')" },
        // The gateway reads and deletes pending live notifications, nothing else: it faces the apps' clients.
        { DatabaseRole.Gateway, $"INSERT INTO {S}.live_pending (notification_id, subscriber_id) VALUES (1, 'ana')" },
        { DatabaseRole.Gateway, $"UPDATE {S}.live_pending SET subject = subject WHERE false" },
        { DatabaseRole.Gateway, $"SELECT id FROM {S}.outbox" },
        { DatabaseRole.Gateway, $"SELECT * FROM {S}.delivery_log" },
        { DatabaseRole.Gateway, $"SELECT * FROM {S}.subscriber" },
        { DatabaseRole.Gateway, $"TRUNCATE {S}.live_pending" },
        { DatabaseRole.Gateway, $"SELECT secret FROM {S}.webhook_endpoint" },
        { DatabaseRole.Gateway, $"DELETE FROM {S}.outcome_event WHERE false" },
        { DatabaseRole.Consumer, $"UPDATE {S}.live_pending SET sent_at = now() WHERE false" },
        // The bounce receiver takes mail from the internet: the delivery log's ids, its outcomes and the suppression add only.
        { DatabaseRole.Bounces, $"SELECT status FROM {S}.delivery_log" },
        { DatabaseRole.Bounces, $"DELETE FROM {S}.notification_outcome WHERE false" },
        { DatabaseRole.Bounces, $"UPDATE {S}.notification_outcome SET status = status WHERE false" },
        { DatabaseRole.Bounces, $"DELETE FROM {S}.suppression WHERE false" },
        { DatabaseRole.Bounces, $"SELECT id FROM {S}.outbox" },
        { DatabaseRole.Bounces, $"SELECT secret FROM {S}.webhook_endpoint" },
        { DatabaseRole.Bounces, $"DELETE FROM {S}.outcome_event WHERE false" },
        { DatabaseRole.Bounces, $"SELECT * FROM {S}.notification_status(1)" },
        // No role changes the schema: that is the migrator's (the owner's) alone.
        { DatabaseRole.App, $"CREATE TABLE {S}.intruder (id int)" },
        { DatabaseRole.Producer, $"ALTER TABLE {S}.outbox ADD COLUMN intruder int" },
        { DatabaseRole.Consumer, $"DROP TABLE {S}.rate_limit" },
        { DatabaseRole.Admin, $"CREATE OR REPLACE FUNCTION {S}.notification_status(p_id bigint) RETURNS int LANGUAGE sql AS 'SELECT 1'" },
    };

    [Theory]
    [MemberData(nameof(Denied))]
    public async Task Statement_NotThisRolesCodePath_DeniedInsufficientPrivilege(DatabaseRole role, string sql)
    {
        await using var connection = await TestDatabase.OpenAsync(role);
        await using var transaction = await connection.BeginTransactionAsync();

        var e = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(sql, transaction: transaction));

        Assert.Equal(PostgresErrorCodes.InsufficientPrivilege, e.SqlState);
    }

    [Theory]
    [InlineData(DatabaseRole.App)]
    [InlineData(DatabaseRole.Producer)]
    [InlineData(DatabaseRole.Consumer)]
    [InlineData(DatabaseRole.Admin)]
    [InlineData(DatabaseRole.Unsubscribe)]
    public async Task Login_EachRole_IsMemberOfItsRoleOnlyAndNoSuperuser(DatabaseRole role)
    {
        await using var connection = await TestDatabase.OpenAsync(role);

        var roles = (await connection.QueryAsync<string>(
            "SELECT r.rolname FROM pg_roles r WHERE pg_has_role(current_user, r.oid, 'USAGE') AND r.rolname <> current_user")).AsList();
        var flags = await connection.QuerySingleAsync<(bool Super, bool CreateRole, bool CreateDb)>(
            "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user");

        Assert.Equal([TestRoles.RoleName(role)], roles);
        Assert.Equal((false, false, false), flags);
    }
}
