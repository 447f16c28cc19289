using System.Diagnostics;
using Dapper;
using Notifications.IntegrationTests.Chaos;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// The consumer's database out of reach for longer than all retry delays together, mid-run, on the real services: the
/// consumer reaches PostgreSQL through an in-process proxy that cuts its connections and refuses new ones (the shared
/// PostgreSQL itself is never touched). An infrastructure failure is not the message's: nothing spends an attempt, nothing
/// is dead-lettered, the consumer does not spin, and everything is delivered once the database is back.
/// </summary>
[Collection("services")]
public sealed class DatabaseOutageTests
{
    private const int Before = 300;
    private const int During = 300;
    private static readonly TimeSpan Outage = TimeSpan.FromSeconds(8);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(90);

    // Issue 27 (6): the handler's catch-all sent any processing failure down the retry path, so an outage of the delivery
    // log's database spent every attempt of what was in hand and dead-lettered it ("gave up after 3 attempts: processing
    // failed"); on quorum queues the requeues of a dead letter that could not be recorded counted toward the delivery limit.
    [Theory]
    [InlineData("AtLeastOnce", RabbitQueueType.Classic)]
    [InlineData("AtMostOnce", RabbitQueueType.Classic)]
    [InlineData("AtLeastOnce", RabbitQueueType.Quorum)]
    [InlineData("AtMostOnce", RabbitQueueType.Quorum)]
    public async Task DatabaseUnreachableMidRun_NoAttemptSpentNothingDeadLetteredAndAllDeliveredOnceAfterwards(string mode, RabbitQueueType queueType)
    {
        var db = await TestDatabase.CleanAsync();
        // Three attempts within about a second: spent on the outage, they would dead-letter what was in hand.
        await using var broker = await TestBroker.CreateAsync(queueType: queueType);
        await using var sink = await SmtpSink.StartAsync();
        var direct = new NpgsqlConnectionStringBuilder(TestRoles.ConnectionString(DatabaseRole.Consumer));
        await using var proxy = BlackholeProxy.Start(direct.Port);
        string viaProxy = new NpgsqlConnectionStringBuilder(direct.ConnectionString) { Host = "127.0.0.1", Port = proxy.Port }.ConnectionString;
        var ids = (await db.InsertAsync(Before)).ToList();

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode), ("Database:ConnectionString", viaProxy)))
        await using (await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50")))
        {
            await sink.WaitForMessagesAsync(Before / 3, Patience);
            proxy.Refuse();
            var down = Stopwatch.StartNew();
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            ids.AddRange(await db.InsertAsync(During));
            // Down past every retry delay, and the consumer did try the database meanwhile (else the test proved nothing).
            await Eventually.WaitAsync(() => Task.FromResult((down.Elapsed, proxy.Refused)), w => w.Elapsed >= Outage && w.Refused > 0, Patience,
                "the outage (elapsed, connections refused)");
            double cores = (Process.GetCurrentProcess().TotalProcessorTime - cpu) / down.Elapsed;
            proxy.Restore();

            // Every notification ends sent or dead-lettered; only the first is right.
            await Eventually.WaitAsync(async () => await db.CountLogAsync("sent") + await db.CountAsync("dead_letter"), n => n >= ids.Count, Patience,
                "every notification sent or dead-lettered");
            Assert.Equal(0, await db.CountAsync("dead_letter"));
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            // No hot spin while it waited: the workers and this test together used well under a core.
            Assert.True(cores < 0.5, $"{cores:F2} cores used during the outage");
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(1, await MostAttemptsAsync());
        Assert.Empty(await broker.NonEmptyQueuesAsync());
        Assert.Equal(0, await db.CountLogAsync("sending"));
    }

    // The attempt on which each notification was sent: 1 for all, when none was spent.
    private static async Task<int> MostAttemptsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<int>($"SELECT coalesce(max(attempts), 0) FROM {TestDatabase.Schema}.delivery_log WHERE status = 'sent'");
    }
}
