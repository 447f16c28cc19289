using Dapper;
using Npgsql;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>The test database (schema <c>notifications</c>, applied by scripts/setup), emptied per test.</summary>
internal sealed class TestDatabase
{
    public const string Schema = "notifications";

    public static async Task<TestDatabase> CleanAsync()
    {
        await using var connection = await OpenAsync();
        await connection.ExecuteAsync($"TRUNCATE {Schema}.outbox, {Schema}.delivery_log, {Schema}.rejected, {Schema}.dead_letter");
        await connection.ExecuteAsync($"UPDATE {Schema}.retention SET lease_until = '-infinity', holder = NULL, last_run_at = NULL, max_deleted_id = NULL");
        return new TestDatabase();
    }

    public static async Task<NpgsqlConnection> OpenAsync()
    {
        var connection = new NpgsqlConnection(TestServices.PostgresConnectionString);
        await connection.OpenAsync();
        return connection;
    }

    /// <summary>Inserts <paramref name="count"/> valid notifications in one statement; returns their ids.</summary>
    public async Task<IReadOnlyList<long>> InsertAsync(int count, string subjectPrefix = "Order shipped")
    {
        await using var connection = await OpenAsync();
        var ids = await connection.QueryAsync<long>($"""
            INSERT INTO {Schema}.outbox (recipient, subject, body)
            SELECT 'user' || g || '@example.com', @Prefix || ' #' || g, 'Hello,' || chr(10) || 'your order ' || g || ' has shipped.'
            FROM generate_series(1, @Count) AS g
            RETURNING id
            """, new { Count = count, Prefix = subjectPrefix });
        return ids.AsList();
    }

    /// <summary>Inserts one row as given (for bad input); returns its id.</summary>
    public async Task<long> InsertRawAsync(string recipient, string subject, string body = "body")
    {
        await using var connection = await OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {Schema}.outbox (recipient, subject, body) VALUES (@recipient, @subject, @body) RETURNING id",
            new { recipient, subject, body });
    }

    public async Task<long> CountAsync(string table)
    {
        await using var connection = await OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {Schema}.{table}");
    }

    public async Task<long> CountLogAsync(string status)
    {
        await using var connection = await OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {Schema}.delivery_log WHERE status = @status", new { status });
    }
}
