using System.Diagnostics;
using System.Globalization;
using Npgsql;
using NpgsqlTypes;
using Notifications.Shared.Contract;

namespace Notifications.Harness.FanOut;

/// <summary>
/// The audience registry of a fan-out run (db/postgres/025_audiences.sql), seeded by binary COPY: subscribers
/// <c>bench-1</c> … <c>bench-N</c>, D live contact points each of the run's channel (push: <see cref="BenchChannel.PushRecipient"/>
/// of the device's number, FCM and APNs as <c>--push-provider</c> says; email: <c>device-K@example.com</c>), and the topic
/// <see cref="FanOutBenchOptions.TopicName"/> with every subscriber in it, then vacuumed and analysed. Device K of subscriber n
/// is number (n-1)×D+K. The live mode's broadcast topic is seeded the same way, without contact points (<see cref="SeedTopicAsync"/>).
/// </summary>
internal sealed class FanOutRegistry(NpgsqlDataSource dataSource)
{
    // A progress line every this many rows of a table.
    private const int ProgressEvery = 250_000;
    private const string SubscriberPrefix = "bench-";

    /// <summary>The pipeline's tables and the registry emptied, identities from 1 again.</summary>
    public async Task ClearAsync()
    {
        await ClearRegistryAsync();
        await ResetPipelineAsync();
    }

    /// <summary>The registry emptied, identities from 1 again (the pipeline's tables are the caller's).</summary>
    public Task ClearRegistryAsync() => ExecuteAsync("""
        TRUNCATE notifications.subscription, notifications.preference, notifications.contact_point, notifications.topic,
                 notifications.subscriber RESTART IDENTITY CASCADE
        """);

    /// <summary>
    /// What a run leaves behind: the outbox, the delivery log, rejected rows, fan-out jobs and their deliveries, and any run's
    /// outcome events (<see cref="BenchDatabase.OutcomeEventsLeftovers"/>).
    /// </summary>
    public Task ResetPipelineAsync() => ExecuteAsync($"""
        TRUNCATE notifications.outbox, notifications.delivery_log, notifications.rejected, notifications.audience_delivery,
                 notifications.fanout_job;
        {BenchDatabase.OutcomeEventsLeftovers}
        """);

    /// <summary>Seeds the registry (after <see cref="ClearAsync"/>), printing progress for large tables.</summary>
    public async Task SeedAsync(int subscribers, int devicesEach, BenchChannel channel)
    {
        var clock = Stopwatch.StartNew();
        await using var connection = await dataSource.OpenConnectionAsync();
        long first = await CopySubscribersAsync(connection, SubscriberPrefix, subscribers, clock);
        long devices = (long)subscribers * devicesEach;
        await CopyAsync(connection, "contact_point (subscriber_id, channel, address)", devices, async (import, k) =>
        {
            await import.WriteAsync(first + ((k - 1) / devicesEach), NpgsqlDbType.Bigint);
            await import.WriteAsync(channel.Name, NpgsqlDbType.Varchar);
            await import.WriteAsync(Address(channel, k), NpgsqlDbType.Varchar);
        }, clock);
        await SubscribeAllAsync(connection, FanOutBenchOptions.TopicName, first, subscribers, clock);
        await VacuumAsync(connection, "notifications.subscriber, notifications.contact_point, notifications.subscription");
    }

    /// <summary>
    /// Seeds (after <see cref="ClearRegistryAsync"/>) subscribers <paramref name="prefix"/>1 … <paramref name="prefix"/>N,
    /// without contact points (a live delivery's address is the subscriber itself), all in <paramref name="topic"/>.
    /// </summary>
    public async Task SeedTopicAsync(string prefix, int subscribers, string topic)
    {
        var clock = Stopwatch.StartNew();
        await using var connection = await dataSource.OpenConnectionAsync();
        long first = await CopySubscribersAsync(connection, prefix, subscribers, clock);
        await SubscribeAllAsync(connection, topic, first, subscribers, clock);
        await VacuumAsync(connection, "notifications.subscriber, notifications.subscription");
    }

    /// <summary>Subscriber n's id as the app knows it.</summary>
    public static string SubscriberId(long n) => SubscriberPrefix + n.ToString(CultureInfo.InvariantCulture);

    /// <summary>Contact point number <paramref name="k"/>'s address on <paramref name="channel"/>.</summary>
    public static string Address(BenchChannel channel, long k) => channel.Name == NotificationChannels.Push
        ? channel.PushRecipient(k)
        : string.Create(CultureInfo.InvariantCulture, $"device-{k}@example.com");

    // Subscribers prefix1 … prefixN; the first one's id.
    private static async Task<long> CopySubscribersAsync(NpgsqlConnection connection, string prefix, int subscribers, Stopwatch clock)
    {
        await CopyAsync(connection, "subscriber (external_id)", subscribers,
            (import, n) => import.WriteAsync(prefix + n.ToString(CultureInfo.InvariantCulture), NpgsqlDbType.Varchar), clock);
        return await CheckIdsAsync(connection, prefix, subscribers);
    }

    // A new topic with subscribers first … first + subscribers - 1 in it.
    private static async Task SubscribeAllAsync(NpgsqlConnection connection, string name, long first, int subscribers, Stopwatch clock)
    {
        long topic = await TopicAsync(connection, name);
        await CopyAsync(connection, "subscription (topic_id, subscriber_id)", subscribers, async (import, n) =>
        {
            await import.WriteAsync(topic, NpgsqlDbType.Bigint);
            await import.WriteAsync(first + n - 1, NpgsqlDbType.Bigint);
        }, clock);
    }

    // VACUUM too: freshly copied tables are what autovacuum's insert threshold starts on, which would then run in the middle
    // of the first run (all-visible pages for the page joins' index-only scans); a registry in service has been vacuumed.
    private static async Task VacuumAsync(NpgsqlConnection connection, string tables)
    {
        await using var vacuum = new NpgsqlCommand($"VACUUM (ANALYZE) {tables}", connection) { CommandTimeout = 600 };
        await vacuum.ExecuteNonQueryAsync();
    }

    private static async Task CopyAsync(
        NpgsqlConnection connection, string table, long rows, Func<NpgsqlBinaryImporter, long, Task> write, Stopwatch clock)
    {
        await using var import = await connection.BeginBinaryImportAsync($"COPY notifications.{table} FROM STDIN (FORMAT BINARY)");
        for (long n = 1; n <= rows; n++)
        {
            await import.StartRowAsync();
            await write(import, n);
            if (n % ProgressEvery == 0)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"    {table[..table.IndexOf(' ', StringComparison.Ordinal)]}: {n:N0} of {rows:N0} ({clock.Elapsed.TotalSeconds:F1} s)"));
            }
        }

        await import.CompleteAsync();
    }

    // The identity gave the subscribers ids in the COPY's row order; checked, as the contact points and subscriptions rely on it.
    private static async Task<long> CheckIdsAsync(NpgsqlConnection connection, string prefix, int subscribers)
    {
        await using var check = new NpgsqlCommand("""
            SELECT min(id), count(*) FILTER (WHERE external_id <> $1 || (id - m.first + 1)::text)
            FROM notifications.subscriber, (SELECT min(id) AS first FROM notifications.subscriber) AS m
            """, connection);
        check.Parameters.Add(new NpgsqlParameter { Value = prefix });
        await using var reader = await check.ExecuteReaderAsync();
        await reader.ReadAsync();
        long first = reader.GetInt64(0);
        long misplaced = reader.GetInt64(1);
        return misplaced == 0
            ? first
            : throw new InvalidOperationException($"{misplaced} of {subscribers} subscribers did not get their ids in the COPY's order");
    }

    private static async Task<long> TopicAsync(NpgsqlConnection connection, string name)
    {
        await using var insert = new NpgsqlCommand("INSERT INTO notifications.topic (name) VALUES ($1) RETURNING id", connection);
        insert.Parameters.Add(new NpgsqlParameter { Value = name });
        return (long)(await insert.ExecuteScalarAsync())!;
    }

    private async Task ExecuteAsync(string sql)
    {
        await using var command = dataSource.CreateCommand(sql);
        command.CommandTimeout = 300;
        await command.ExecuteNonQueryAsync();
    }
}
