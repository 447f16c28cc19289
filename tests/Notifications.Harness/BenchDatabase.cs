using System.Globalization;
using Npgsql;
using NpgsqlTypes;

namespace Notifications.Harness;

/// <summary>The benchmark's own database (schema <c>notifications</c>): seeding, counters, counts.</summary>
internal sealed class BenchDatabase(string connectionString) : IAsyncDisposable
{
    private readonly NpgsqlDataSource _dataSource = NpgsqlDataSource.Create(connectionString);

    public string ConnectionString => connectionString;

    public NpgsqlDataSource DataSource => _dataSource;

    /// <summary>The same shape as scripts/demo's rows, so every run and ceiling uses one message size.</summary>
    public static (string Recipient, string Subject, string Body) Row(long n) => (
        string.Create(CultureInfo.InvariantCulture, $"customer{n}@example.com"),
        string.Create(CultureInfo.InvariantCulture, $"Your order #{n} has shipped"),
        string.Create(CultureInfo.InvariantCulture, $"Hello,\n\norder {n} is on its way.\n"));

    /// <summary>
    /// Empties what a run leaves behind: the outbox, the delivery log, the rejected rows, and the outcome events with their
    /// subscriptions and endpoints (a <c>--outcome-events</c> run's endpoint is its own; left subscribed, every later run,
    /// with the switch or without it, would write events for it too).
    /// </summary>
    public Task ResetAsync() =>
        ExecuteAsync($"""
            TRUNCATE notifications.outbox, notifications.delivery_log, notifications.rejected;
            {OutcomeEventsLeftovers}
            """);

    /// <summary>
    /// The outcome events of earlier runs and the <c>--outcome-events</c> runs' endpoints (with their subscriptions): every
    /// mode's reset removes them, since the benchmarks share a database. Left behind, a later run of any mode wrote a
    /// delivered event for each of its deliveries (a fan-out run's p50 doubled).
    /// </summary>
    public const string OutcomeEventsLeftovers = """
        TRUNCATE notifications.outcome_event;
        DELETE FROM notifications.webhook_endpoint WHERE name LIKE 'bench-events-%'
        """;

    /// <summary>
    /// Bulk-loads <paramref name="rows"/> rows with one binary COPY (seconds for a million, not hours); with
    /// <paramref name="template"/>, rows naming that <see cref="BenchTemplate"/> with their data (rendered by the consumer)
    /// instead of prepared subjects and bodies; with a webhook or push <paramref name="channel"/>, that channel's rows.
    /// </summary>
    public async Task SeedAsync(int rows, long firstNumber = 1, string priority = "normal", string? template = null, BenchChannel? channel = null)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        if (channel is { IsEmail: false })
        {
            await CopyChannelRowsAsync(connection, channel, rows, firstNumber, priority);
            await AnalyzeAsync(connection);
            return;
        }

        bool templated = template is not null;
        if (templated)
        {
            await PutTemplatesAsync(connection);
        }

        await using (var import = await connection.BeginBinaryImportAsync(templated
            ? "COPY notifications.outbox (recipient, template_name, template_data, priority) FROM STDIN (FORMAT BINARY)"
            : "COPY notifications.outbox (recipient, subject, body, priority) FROM STDIN (FORMAT BINARY)"))
        {
            for (long n = firstNumber; n < firstNumber + rows; n++)
            {
                var (recipient, subject, body) = Row(n);
                await import.StartRowAsync();
                await import.WriteAsync(recipient, NpgsqlDbType.Varchar);
                await import.WriteAsync(templated ? template : subject, NpgsqlDbType.Varchar);
                await import.WriteAsync(templated ? BenchTemplate.Data(n) : body, NpgsqlDbType.Text);
                await import.WriteAsync(priority, NpgsqlDbType.Varchar);
            }

            await import.CompleteAsync();
        }

        await AnalyzeAsync(connection);
    }

    private static async Task CopyChannelRowsAsync(NpgsqlConnection connection, BenchChannel channel, int rows, long firstNumber, string priority)
    {
        await using var import = await connection.BeginBinaryImportAsync(
            "COPY notifications.outbox (channel, recipient, subject, body, data, priority) FROM STDIN (FORMAT BINARY)");
        for (long n = firstNumber; n < firstNumber + rows; n++)
        {
            var (recipient, subject, body, data) = channel.Row(n);
            await import.StartRowAsync();
            await import.WriteAsync(channel.Name, NpgsqlDbType.Varchar);
            await import.WriteAsync(recipient, NpgsqlDbType.Varchar);
            await import.WriteAsync(subject, NpgsqlDbType.Varchar);
            await import.WriteAsync((object?)body ?? DBNull.Value, NpgsqlDbType.Text);
            await import.WriteAsync((object?)data ?? DBNull.Value, NpgsqlDbType.Text);
            await import.WriteAsync(priority, NpgsqlDbType.Varchar);
        }

        await import.CompleteAsync();
    }

    private static async Task AnalyzeAsync(NpgsqlConnection connection)
    {
        await using var analyze = new NpgsqlCommand("ANALYZE notifications.outbox", connection);
        await analyze.ExecuteNonQueryAsync();
    }

    // Version 1 of the bench templates, once per database (a later put by hand would win: the newest is rendered).
    private static async Task PutTemplatesAsync(NpgsqlConnection connection)
    {
        string?[][] templates =
        [
            [BenchTemplate.Name, BenchTemplate.Locale, BenchTemplate.Subject, BenchTemplate.Text, BenchTemplate.Html],
            [BenchTemplate.PlainName, BenchTemplate.Locale, BenchTemplate.PlainSubject, BenchTemplate.PlainText, null],
        ];
        foreach (var values in templates)
        {
            await using var put = new NpgsqlCommand("""
                INSERT INTO notifications.template (name, locale, version, subject, text_body, html_body)
                VALUES ($1, $2, 1, $3, $4, $5) ON CONFLICT (name, locale, version) DO NOTHING
                """, connection);
            foreach (string? value in values)
            {
                put.Parameters.Add(new NpgsqlParameter { Value = (object?)value ?? DBNull.Value, NpgsqlDbType = NpgsqlDbType.Text });
            }

            await put.ExecuteNonQueryAsync();
        }
    }

    /// <summary>Inserts <paramref name="count"/> rows in one statement (its own transaction: created_at = commit time, near enough).</summary>
    public async Task InsertAsync(int count, long firstNumber)
    {
        var recipients = new string[count];
        var subjects = new string[count];
        var bodies = new string[count];
        for (int i = 0; i < count; i++)
        {
            (recipients[i], subjects[i], bodies[i]) = Row(firstNumber + i);
        }

        await using var command = _dataSource.CreateCommand(
            "INSERT INTO notifications.outbox (recipient, subject, body) SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::text[])");
        command.Parameters.Add(new NpgsqlParameter { Value = recipients });
        command.Parameters.Add(new NpgsqlParameter { Value = subjects });
        command.Parameters.Add(new NpgsqlParameter { Value = bodies });
        await command.ExecuteNonQueryAsync();
    }

    /// <summary>Inserts one urgent notification (its own transaction) and returns its id.</summary>
    public async Task<long> InsertUrgentAsync(long number)
    {
        var (recipient, subject, body) = Row(number);
        await using var command = _dataSource.CreateCommand(
            "INSERT INTO notifications.outbox (recipient, subject, body, priority) VALUES ($1, $2, $3, 'urgent') RETURNING id");
        command.Parameters.Add(new NpgsqlParameter { Value = recipient });
        command.Parameters.Add(new NpgsqlParameter { Value = subject });
        command.Parameters.Add(new NpgsqlParameter { Value = body });
        return (long)(await command.ExecuteScalarAsync())!;
    }

    /// <summary>
    /// For the sent ones among <paramref name="ids"/>: milliseconds from outbox commit (created_at) to the
    /// delivery log's 'sent' (updated_at: SMTP accepted, then recorded), ascending.
    /// </summary>
    public async Task<List<double>> SentLatenciesMsAsync(IReadOnlyList<long> ids)
    {
        await using var command = _dataSource.CreateCommand("""
            SELECT extract(epoch FROM updated_at - created_at)::float8 * 1000
            FROM notifications.delivery_log
            WHERE status = 'sent' AND notification_id = ANY($1)
            ORDER BY 1
            """);
        command.Parameters.Add(new NpgsqlParameter { Value = ids.ToArray() });
        var result = new List<double>();
        await using var reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            result.Add(reader.GetDouble(0));
        }

        return result;
    }

    public Task<long> CountOutboxAsync() => ScalarAsync("SELECT count(*) FROM notifications.outbox");

    /// <summary>Outcome events made (<c>--outcome-events</c>): one per email delivered, written in the delivery log's batches.</summary>
    public Task<long> CountOutcomeEventsAsync() => ScalarAsync("SELECT count(*) FROM notifications.outcome_event");

    public Task<long> CountSentAsync() => ScalarAsync("SELECT count(*) FROM notifications.delivery_log WHERE status = 'sent'");

    /// <summary>
    /// Cheap running counters for the progress line: rows deleted from the outbox and inserted into the
    /// delivery log so far (cumulative statistics, flushed by each backend about once a second).
    /// </summary>
    public async Task<(long OutboxDeleted, long LogInserted)> CountersAsync()
    {
        await using var command = _dataSource.CreateCommand("""
            SELECT coalesce(sum(n_tup_del) FILTER (WHERE relname = 'outbox'), 0)::bigint,
                   coalesce(sum(n_tup_ins) FILTER (WHERE relname = 'delivery_log'), 0)::bigint
            FROM pg_stat_user_tables WHERE schemaname = 'notifications'
            """);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return (reader.GetInt64(0), reader.GetInt64(1));
    }

    public ValueTask DisposeAsync() => _dataSource.DisposeAsync();

    public async Task ExecuteAsync(string sql)
    {
        await using var command = _dataSource.CreateCommand(sql);
        await command.ExecuteNonQueryAsync();
    }

    public async Task<long> ScalarAsync(string sql)
    {
        await using var command = _dataSource.CreateCommand(sql);
        return (long)(await command.ExecuteScalarAsync())!;
    }
}
