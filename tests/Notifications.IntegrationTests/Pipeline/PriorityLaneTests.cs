using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// Priority lanes on the real services: a bulk backlog sits in the work queue and in the consumer's prefetch
/// window, urgent notifications arrive, and they must overtake it (their own claim loop, queue and handlers)
/// while the bulk keeps moving.
/// </summary>
[Collection("services")]
public sealed class PriorityLaneTests
{
    private const int Bulk = 8_000;
    private const int Urgent = 20;
    private const int BulkBehindBurst = 3_000;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(4);

    // Generous for a shared 2-core box; a broken lane waits behind thousands of bulk messages (and sees them all sent first).
    private static readonly TimeSpan UrgentBound = TimeSpan.FromSeconds(3);

    [Fact]
    public async Task UrgentLane_BulkBacklogInQueue_UrgentOvertakesAndBulkStillProgresses()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var bulk = await db.InsertAsync(Bulk, "Newsletter", priority: "bulk");

        // Few standard handlers and a deep prefetch: the bulk backlog fills the standard lane's window.
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Consumer:Handlers", "2"), ("Consumer:Prefetch", "2000"), ("Consumer:UrgentHandlers", "2"));
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "bulk backlog moved to the queue");
        await Eventually.WaitAsync(() => db.CountSentAsync(bulk), n => n >= 500, Patience, "bulk delivery under way");
        long bulkBefore = await db.CountSentAsync(bulk);

        var urgent = new List<long>();
        for (int i = 0; i < Urgent; i++)
        {
            urgent.Add(await TestDatabase.EnqueueAsync(
                new NewNotification($"reset{i}@example.com", "Reset your password", "Your code: 123456") { Priority = NotificationPriority.Urgent }));
            await Task.Delay(50);
        }

        await Eventually.WaitAsync(() => db.CountSentAsync(urgent), n => n == Urgent, Patience, "urgent notifications sent");
        long bulkWhenUrgentDone = await db.CountSentAsync(bulk);
        var latencies = await db.SentLatenciesAsync(urgent);

        Assert.True(bulkWhenUrgentDone < Bulk, $"the bulk backlog was gone before the urgent ones were sent: nothing was overtaken ({bulkWhenUrgentDone} of {Bulk})");
        Assert.True(latencies.Max() <= UrgentBound,
            $"urgent commit -> sent took up to {latencies.Max().TotalMilliseconds:F0} ms (bound {UrgentBound.TotalMilliseconds} ms) with {Bulk - bulkWhenUrgentDone} bulk still waiting");
        Assert.True(bulkWhenUrgentDone > bulkBefore, $"bulk made no progress while urgent flowed ({bulkBefore} -> {bulkWhenUrgentDone})");
        var received = sink.CountByNotificationId();
        Assert.All(urgent, id => Assert.Equal(1, received.GetValueOrDefault(id)));

        // And the bulk backlog still completes, each exactly once.
        await sink.WaitForMessagesAsync(Bulk + Urgent, Patience);
        PipelineTests.AssertExactlyOnce([.. bulk, .. urgent], sink.CountByNotificationId());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.UrgentQueue));
    }

    [Fact]
    public async Task UrgentLane_BurstPackedInEnvelopesOf50_OvertakesBulkAndEachIdOnceWithEveryQueueEmpty()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var bulk = await db.InsertAsync(BulkBehindBurst, "Newsletter", priority: "bulk");

        // Prefetch 40 envelopes of 50: the standard lane's window holds 2,000 bulk notifications.
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Consumer:Handlers", "2"), ("Consumer:Prefetch", "40"), ("Consumer:UrgentHandlers", "2"), ("Consumer:UrgentPrefetch", "2"));
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50"));
        await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "bulk backlog moved to the queue");
        await Eventually.WaitAsync(() => db.CountSentAsync(bulk), n => n >= 500, Patience, "bulk delivery under way");

        // One commit of 200: the producer claims them together and packs them into four envelopes of 50.
        var urgent = await db.InsertAsync(4 * 50, "Reset your password", priority: "urgent");
        await Eventually.WaitAsync(() => db.CountSentAsync(urgent), n => n == urgent.Count, Patience, "urgent notifications sent");
        long bulkWhenUrgentDone = await db.CountSentAsync(bulk);

        Assert.True(bulkWhenUrgentDone < BulkBehindBurst, $"the bulk backlog was gone before the urgent burst was sent: nothing was overtaken ({bulkWhenUrgentDone} of {BulkBehindBurst})");
        await sink.WaitForMessagesAsync(BulkBehindBurst + urgent.Count, Patience);
        await consumer.StopAsync();
        PipelineTests.AssertExactlyOnce([.. bulk, .. urgent], sink.CountByNotificationId());
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }
}
