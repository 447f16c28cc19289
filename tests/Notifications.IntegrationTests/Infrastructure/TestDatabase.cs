using System.Globalization;
using Dapper;
using Notifications.Client;
using Npgsql;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>The test database (schema <c>notifications</c>, migrated by scripts/setup and before the first test: <see cref="TestMigrations"/>), emptied per test.</summary>
internal sealed class TestDatabase
{
    public const string Schema = "notifications";

    public static async Task<TestDatabase> CleanAsync()
    {
        await using var connection = await OpenAsync();
        await connection.ExecuteAsync($"TRUNCATE {Schema}.outbox, {Schema}.delivery_log, {Schema}.rejected, {Schema}.dead_letter, {Schema}.idempotency_key, {Schema}.suppression, {Schema}.template, {Schema}.attachment");
        // The audience registry (025): its tables reference each other, so they go in one statement.
        await connection.ExecuteAsync($"TRUNCATE {Schema}.live_broadcast_receipt, {Schema}.live_broadcast, {Schema}.preference, {Schema}.category_default, {Schema}.category, {Schema}.subscription, {Schema}.topic, {Schema}.contact_point, {Schema}.subscriber");
        // Fan-out jobs and their deliveries (030).
        await connection.ExecuteAsync($"TRUNCATE {Schema}.audience_delivery, {Schema}.fanout_job");
        // The live channel's pending notifications (032).
        await connection.ExecuteAsync($"TRUNCATE {Schema}.live_pending");
        // What bounce and complaint reports said of sent notifications (037).
        await connection.ExecuteAsync($"TRUNCATE {Schema}.notification_outcome");
        // Outcome events made and the subscriptions (038): a test's subscription left behind would make every later test's
        // consumer write events into the outbox (the endpoints themselves stay: webhook tests remove theirs).
        await connection.ExecuteAsync($"TRUNCATE {Schema}.outcome_event, {Schema}.webhook_event_subscription");
        // Failed attempts of a notification's story (039).
        await connection.ExecuteAsync($"TRUNCATE {Schema}.delivery_attempt");
        // The client keeps a template's variables 10 s (TemplateCatalog): a test's templates are not the last test's.
        Notifications.Client.TemplateCatalog.Clear();
        await connection.ExecuteAsync($"UPDATE {Schema}.retention SET lease_until = '-infinity', holder = NULL, last_run_at = NULL, max_deleted_id = NULL");
        return new TestDatabase();
    }

    public static async Task<NpgsqlConnection> OpenAsync()
    {
        var connection = new NpgsqlConnection(TestServices.PostgresConnectionString);
        await connection.OpenAsync();
        return connection;
    }

    /// <summary>A connection as a login in <paramref name="role"/> (the inserts below are the business app's: <see cref="DatabaseRole.App"/>).</summary>
    public static async Task<NpgsqlConnection> OpenAsync(DatabaseRole role)
    {
        var connection = new NpgsqlConnection(TestRoles.ConnectionString(role));
        await connection.OpenAsync();
        return connection;
    }

    /// <summary>Inserts <paramref name="count"/> valid notifications in one statement; returns their ids.</summary>
    public async Task<IReadOnlyList<long>> InsertAsync(int count, string subjectPrefix = "Order shipped", string priority = "normal")
    {
        await using var connection = await OpenAsync(DatabaseRole.App);
        var ids = await connection.QueryAsync<long>($"""
            INSERT INTO {Schema}.outbox (recipient, subject, body, priority)
            SELECT 'user' || g || '@example.com', @Prefix || ' #' || g, 'Hello,' || chr(10) || 'your order ' || g || ' has shipped.', @Priority
            FROM generate_series(1, @Count) AS g
            RETURNING id
            """, new { Count = count, Prefix = subjectPrefix, Priority = priority });
        return ids.AsList();
    }

    /// <summary>
    /// Inserts <paramref name="count"/> notifications in one statement, every other one with a recipient the table takes and the
    /// consumer dead-letters at once, with its reason (consecutive dots, migration 023): the producer packs both kinds into the same envelopes. As the owner (the
    /// app's login may not read the recipients back).
    /// </summary>
    public async Task<(IReadOnlyList<long> Valid, IReadOnlyList<long> Invalid)> InsertHalfInvalidAsync(int count)
    {
        await using var connection = await OpenAsync();
        var rows = (await connection.QueryAsync<(long Id, string Recipient)>($"""
            INSERT INTO {Schema}.outbox (recipient, subject, body)
            SELECT CASE WHEN g % 2 = 0 THEN 'user' || g || '@invalid@example.com' ELSE 'user' || g || '@example.com' END, 'Order shipped #' || g, 'Hello'
            FROM generate_series(1, @Count) AS g
            RETURNING id, recipient
            """, new { Count = count })).ToList();
        return (rows.Where(r => !r.Recipient.Contains("@invalid@", StringComparison.Ordinal)).Select(r => r.Id).ToList(),
            rows.Where(r => r.Recipient.Contains("@invalid@", StringComparison.Ordinal)).Select(r => r.Id).ToList());
    }

    /// <summary>Inserts one row as given (for bad input); returns its id.</summary>
    public async Task<long> InsertRawAsync(string recipient, string subject, string body = "body")
    {
        await using var connection = await OpenAsync(DatabaseRole.App);
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {Schema}.outbox (recipient, subject, body) VALUES (@recipient, @subject, @body) RETURNING id",
            new { recipient, subject, body });
    }

    /// <summary>Enqueues one notification through the business apps' API, committed; returns its id.</summary>
    public static async Task<long> EnqueueAsync(NewNotification notification)
    {
        await using var connection = await OpenAsync(DatabaseRole.App);
        await using var transaction = await connection.BeginTransactionAsync();
        long id = await NotificationOutbox.EnqueueAsync(transaction, notification, Schema);
        await transaction.CommitAsync();
        return id;
    }

    /// <summary>Which of <paramref name="ids"/> are still in the outbox.</summary>
    public async Task<IReadOnlyList<long>> InOutboxAsync(IReadOnlyList<long> ids)
    {
        await using var connection = await OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT id FROM {Schema}.outbox WHERE id = ANY(@ids)", new { ids = ids.ToArray() })).AsList();
    }

    /// <summary>Delivery-log latency (updated_at - created_at, SMTP accepted and logged) of the given ids that are sent.</summary>
    public async Task<IReadOnlyList<TimeSpan>> SentLatenciesAsync(IReadOnlyList<long> ids)
    {
        await using var connection = await OpenAsync();
        var seconds = await connection.QueryAsync<double>(
            $"SELECT extract(epoch FROM updated_at - created_at)::float8 FROM {Schema}.delivery_log WHERE status = 'sent' AND notification_id = ANY(@ids)",
            new { ids = ids.ToArray() });
        return seconds.Select(TimeSpan.FromSeconds).ToList();
    }

    /// <summary>How many of <paramref name="ids"/> the delivery log has as sent.</summary>
    public async Task<long> CountSentAsync(IReadOnlyList<long> ids)
    {
        await using var connection = await OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"SELECT count(*) FROM {Schema}.delivery_log WHERE status = 'sent' AND notification_id = ANY(@ids)", new { ids = ids.ToArray() });
    }

    public async Task<long> CountAsync(string table)
    {
        await using var connection = await OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {Schema}.{table}");
    }

    /// <summary>
    /// What notification_status answers for those of <paramref name="ids"/> whose state is not one of
    /// <paramref name="expected"/>, a line each (at most 20): for a wait's failure message.
    /// </summary>
    public async Task<string> DescribeOthersAsync(IReadOnlyList<long> ids, params string[] expected)
    {
        await using var connection = await OpenAsync();
        var rows = await connection.QueryAsync<(long Id, string State, int? Attempts, string? Reason)>(
            $"""
            SELECT s.notification_id, s.state, s.attempts, s.reason
            FROM unnest(@ids) AS i(id) CROSS JOIN LATERAL {Schema}.notification_status(i.id) AS s
            WHERE s.state <> ALL(@expected) ORDER BY s.notification_id LIMIT 20
            """, new { ids = ids.ToArray(), expected });
        var lines = rows.Select(r => $"  {r.Id}: {r.State}, attempts {r.Attempts?.ToString(CultureInfo.InvariantCulture) ?? "-"}, {r.Reason ?? "no reason"}").ToList();
        return lines.Count == 0 ? "  (none)" : string.Join('\n', lines);
    }

    public async Task<long> CountLogAsync(string status)
    {
        await using var connection = await OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {Schema}.delivery_log WHERE status = @status", new { status });
    }
}
