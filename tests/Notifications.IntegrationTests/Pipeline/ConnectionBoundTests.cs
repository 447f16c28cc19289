using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.RateLimiting;
using Notifications.IntegrationTests.Shutdown;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// A worker holds no more database connections than its documented bound (docs/deploying.md, "Database connections"),
/// counted where they cost: the server's processes of the worker's login in <c>pg_stat_activity</c>. Consumers, producers
/// and the business apps share one <c>max_connections</c>; a pool sized by the number of handlers exhausts it.
/// </summary>
[Collection("services")]
public sealed class ConnectionBoundTests(ITestOutputHelper output)
{
    private const int ConsumerBound = Shared.Hosting.DatabaseOptions.ConsumerPoolSize;
    private const int ProducerBound = Shared.Hosting.DatabaseOptions.ProducerPoolSize;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(3);

    /// <summary>
    /// Every statement a delivery makes: the standard and urgent lanes' delivery-log checks and records, the suppressed
    /// recipients' records, and — after a consumer was killed with its prefetch windows full — the dead-letter lookup of
    /// every redelivered item, 48 handlers at once. The producer (in this process, as its own login) is held to its bound too.
    /// </summary>
    [Fact]
    public async Task Workers_ConsumerWith48HandlersTakingOverAKilledOnesDeliveries_HoldNoMoreConnectionsThanTheirBounds()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.suppression (address, reason, scope) VALUES ('@blocked.test', 'manual', 'all')");
        }

        var sent = (await db.InsertAsync(3_000)).Concat(await db.InsertAsync(1_000, priority: "bulk")).Concat(await db.InsertAsync(500, priority: "urgent")).ToList();
        await SinkArrivals.InsertAsync(500, every: 1, limitedPerEvery: 1, "blocked.test", "example.com");
        (string, string)[] settings =
        [
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)), ("Smtp:Security", "None"),
            ("Consumer:Handlers", "48"),
        ];

        await using var producerBackends = BackendSampler.Start(DatabaseRole.Producer);
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await using (var first = WorkerProcess.Start("Consumer", broker, settings))
            {
                await first.WaitWhileRunningAsync(() => db.CountLogAsync("sent"), n => n >= 500, Patience, "the first 500 sent");
                first.Kill();
            }

            await Eventually.WaitAsync(() => BackendSampler.CountAsync(DatabaseRole.Consumer), n => n == 0, Patience, "the killed consumer's connections closed");
            await using var backends = BackendSampler.Start(DatabaseRole.Consumer);
            await using (var second = WorkerProcess.Start("Consumer", broker, settings))
            {
                await second.WaitWhileRunningAsync(() => db.CountLogAsync("sent"), n => n >= sent.Count, Patience, "all sent");
                await second.WaitWhileRunningAsync(() => db.CountLogAsync("suppressed"), n => n >= 500, Patience, "all suppressed");
            }

            output.WriteLine($"the consumer's login held at most {backends.Most} connections ({backends.Busiest}); bound {ConsumerBound}; "
                + $"load average {File.ReadAllText("/proc/loadavg").Trim()}");
            Assert.True(backends.Most <= ConsumerBound, $"the consumer held {backends.Most} connections ({backends.Busiest}); its bound is {ConsumerBound}");
        }

        output.WriteLine($"the producer's login held at most {producerBackends.Most} ({producerBackends.Busiest}); bound {ProducerBound}");
        Assert.True(producerBackends.Most <= ProducerBound, $"the producer held {producerBackends.Most} connections; its bound is {ProducerBound}");

        var received = sink.CountByNotificationId();
        Assert.All(sent, id => Assert.True(received.ContainsKey(id), $"{id} never arrived"));
        Assert.Empty(await broker.DrainDeadLettersAsync());
    }
}
