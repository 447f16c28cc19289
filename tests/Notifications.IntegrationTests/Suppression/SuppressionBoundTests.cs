using Dapper;
using Notifications.Consumer.Suppression;
using Notifications.IntegrationTests.Infrastructure;
using Priority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>
/// A suppression list larger than a consumer holds in memory (issue 27, item 10: the copy used to be the whole table, in
/// every consumer): notifications to listed addresses, a listed domain and a bulk-only entry are still suppressed, the
/// others delivered, counted at the SMTP server; the consumer's copy stays under <c>Suppression:CacheEntries</c>.
/// </summary>
[Collection("services")]
public sealed class SuppressionBoundTests
{
    private const int Bound = 100;
    private const int Entries = 2_000;
    private const int PerKind = 60;
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Suppress_ListLargerThanTheCacheBound_SuppressedAtTheSinkAndTheCopyStaysUnderTheBound()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"""
                INSERT INTO {TestDatabase.Schema}.suppression (address, reason, scope)
                SELECT 'listed' || g || '@example.com', 'manual', CASE WHEN g % 2 = 0 THEN 'all' ELSE 'bulk' END FROM generate_series(0, {Entries - 1}) AS g
                UNION ALL SELECT '@blocked.test', 'complaint', 'all'
                """);
        }

        // Listed addresses spread over the whole table (scope all: even numbers), in other case than the key.
        var suppressed = new List<long>();
        var sent = new List<long>();
        for (int i = 0; i < PerKind; i++)
        {
            suppressed.Add(await SuppressionProbe.EnqueueAsync($"Listed{i * 2 * 17 % Entries}@Example.com"));
            suppressed.Add(await SuppressionProbe.EnqueueAsync($"user{i}@blocked.test"));
            // Bulk-only entries (odd numbers): bulk mail suppressed, normal mail sent.
            suppressed.Add(await SuppressionProbe.EnqueueAsync($"listed{(i * 2 * 17 % Entries) + 1}@example.com", Priority.Bulk));
            sent.Add(await SuppressionProbe.EnqueueAsync($"listed{(i * 2 * 17 % Entries) + 1}@example.com"));
            sent.Add(await SuppressionProbe.EnqueueAsync($"free{i}@example.com"));
        }

        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Suppression:CacheEntries", Bound.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => db.CountAsync("delivery_log"), n => n == suppressed.Count + sent.Count, Timeout, "every notification settled");
            await sink.WaitForMessagesAsync(sent.Count, Timeout);
        }

        var counts = sink.CountByNotificationId();
        Assert.All(sent, id => Assert.Equal(1, counts.GetValueOrDefault(id)));
        Assert.All(suppressed, id => Assert.False(counts.ContainsKey(id), $"notification {id} reached the server"));
        Assert.Equal(sent.Count, counts.Count);
        int copy = consumer.Get<SuppressionCache>().Count;
        Assert.True(copy <= Bound, $"the consumer holds {copy} keys of a {Entries + 1}-entry list, over Suppression:CacheEntries = {Bound}");
    }
}
