using System.Diagnostics;
using Dapper;
using Notifications.Consumer.Infrastructure;
using Notifications.IntegrationTests.Chaos;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Npgsql;
using Polly.CircuitBreaker;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// The consumer's database out of reach for longer than all retry delays together, mid-run, on the real services: the
/// consumer reaches PostgreSQL through an in-process proxy that cuts its connections and refuses new ones (the shared
/// PostgreSQL itself is never touched). An infrastructure failure is not the message's: nothing spends an attempt, nothing
/// is dead-lettered, the consumer stops consuming and does not spin, and everything is delivered once the database is back.
/// </summary>
[Collection("services")]
public sealed class DatabaseOutageTests(ITestOutputHelper output)
{
    private const int Before = 300;
    private const int During = 300;
    // The consumer's handlers (WorkerHost's 16 standard, 16 urgent): at most one mark each in flight when the database goes.
    private const int InFlight = 32;
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

        // A short sampling window: the breaker opens within the outage (by default it takes up to 10 s of failures).
        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode), ("Database:ConnectionString", viaProxy),
            ("Infrastructure:SamplingDuration", "00:00:02"), ("Infrastructure:BreakDuration", "00:00:02")))
        await using (await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50")))
        {
            await sink.WaitForMessagesAsync(Before / 3, Patience);
            proxy.Refuse();
            var down = Stopwatch.StartNew();
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            ids.AddRange(await db.InsertAsync(During));
            // The consumer stops taking work: it holds what it has, unacked, and the broker keeps the rest. (A quorum queue of
            // RabbitMQ 3.10 still counts a cancelled consumer while it holds unacked deliveries.)
            var breaker = consumer.Get<InfrastructureBreaker>();
            await Eventually.WaitAsync(() => Task.FromResult(breaker.State), s => s != CircuitState.Closed, Patience, "infrastructure breaker opened");
            if (queueType == RabbitQueueType.Classic)
            {
                await Eventually.WaitAsync(() => broker.ConsumersAsync(broker.Options.Queue), n => n == 0, Patience, "consumer left the work queue");
            }

            // Down past every retry delay, and the consumer did try the database meanwhile (else the test proved nothing).
            await Eventually.WaitAsync(() => Task.FromResult((down.Elapsed, proxy.Refused)), w => w.Elapsed >= Outage && w.Refused > 0, Patience,
                "the outage (elapsed, connections refused)");
            double cores = (Process.GetCurrentProcess().TotalProcessorTime - cpu) / down.Elapsed;
            output.WriteLine($"outage {down.Elapsed.TotalSeconds:F1} s: {proxy.Refused} connections refused, {cores:F3} cores used by the test process");
            proxy.Restore();
            await Eventually.WaitAsync(() => Task.FromResult(breaker.State), s => s == CircuitState.Closed, Patience, "infrastructure breaker closed");
            await Eventually.WaitAsync(() => broker.ConsumersAsync(broker.Options.Queue), n => n == 1, Patience, "consuming again");

            // Every notification ends sent or dead-lettered (or, at most once, marked and never sent); only the first is right.
            await Eventually.WaitAsync(async () => await db.CountLogAsync("sent") + await db.CountLogAsync("sending") + await db.CountAsync("dead_letter"),
                n => n >= ids.Count, Patience, "every notification sent, marked or dead-lettered");
            Assert.Equal(0, await db.CountAsync("dead_letter"));
            // No hot spin while it waited (a handler looping on a failure takes a core): the workers, which also took the rows
            // inserted meanwhile, and this test together used well under one (0.1-0.4 measured on a loaded 2-core machine).
            Assert.True(cores < 0.8, $"{cores:F2} cores used during the outage");
        }

        var received = sink.CountByNotificationId();
        var notReceived = ids.Where(id => !received.ContainsKey(id)).ToList();
        if (mode == "AtLeastOnce")
        {
            PipelineTests.AssertExactlyOnce(ids, received);
        }
        else
        {
            // At most once, a mark whose statement committed as the connection was cut, its answer lost, cannot be told from
            // another copy's: the notification is not sent (a loss with its 'sending' mark as the trace, as after a crash),
            // at most one a handler.
            Assert.True(received.Values.All(n => n == 1), "received more than once");
            Assert.Equal(notReceived.Count, await db.CountLogAsync("sending"));
            Assert.InRange(notReceived.Count, 0, InFlight);
        }

        Assert.Equal(1, await MostAttemptsAsync());
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }

    // The attempt on which each notification was sent: 1 for all, when none was spent.
    private static async Task<int> MostAttemptsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<int>($"SELECT coalesce(max(attempts), 0) FROM {TestDatabase.Schema}.delivery_log WHERE status = 'sent'");
    }
}
