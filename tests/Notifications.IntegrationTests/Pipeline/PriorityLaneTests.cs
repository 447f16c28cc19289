using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// Priority lanes on the real services: a bulk backlog sits in the work queue and in the consumer's prefetch
/// window, urgent notifications arrive, and they must overtake it (their own claim loop, queue and handlers)
/// while the bulk keeps moving.
/// </summary>
[Collection("services")]
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
public sealed class PriorityLaneTests
{
    private const int Bulk = 8_000;
    private const int Urgent = 20;
    private const int BulkBehindBurst = 3_000;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(4);

    // The standard lane's window holds 2,000 bulk notifications: an urgent one waiting behind them sees them all sent first,
    // however fast or slow the machine; one that overtakes sees the few that two handlers send meanwhile.
    private const int BulkPassedBound = 1_000;

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
        }

        await Eventually.WaitAsync(() => db.CountSentAsync(urgent), n => n == Urgent, Patience, "urgent notifications sent");
        long bulkWhenUrgentDone = await db.CountSentAsync(bulk);
        long bulkPassed = await BulkSentWhileOnTheirWayAsync(bulk, urgent);

        Assert.True(bulkWhenUrgentDone < Bulk, $"the bulk backlog was gone before the urgent ones were sent: nothing was overtaken ({bulkWhenUrgentDone} of {Bulk})");
        // A count, not a time: a loaded machine slows the urgent lane and the bulk alike.
        Assert.True(bulkPassed < BulkPassedBound,
            $"{bulkPassed} bulk notifications were sent while an urgent one was on its way (bound {BulkPassedBound}; the window holds 2,000): it waited behind them");
        Assert.True(bulkWhenUrgentDone > bulkBefore, $"bulk made no progress while urgent flowed ({bulkBefore} -> {bulkWhenUrgentDone})");
        var received = sink.CountByNotificationId();
        Assert.All(urgent, id => Assert.Equal(1, received.GetValueOrDefault(id)));

        // And the bulk backlog still completes, each exactly once.
        await sink.WaitForMessagesAsync(Bulk + Urgent, Patience);
        PipelineTests.AssertExactlyOnce([.. bulk, .. urgent], sink.CountByNotificationId());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.UrgentQueue));
    }

    // The most bulk notifications logged sent between an urgent one's commit (its created_at, the outbox insert) and its own
    // send (its updated_at), by the delivery log's times.
    private static async Task<long> BulkSentWhileOnTheirWayAsync(IReadOnlyList<long> bulk, IReadOnlyList<long> urgent)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"""
            SELECT coalesce(max(passed), 0) FROM (
                SELECT (SELECT count(*) FROM {TestDatabase.Schema}.delivery_log AS b
                        WHERE b.notification_id = ANY(@Bulk) AND b.status = 'sent' AND b.updated_at > u.created_at AND b.updated_at < u.updated_at) AS passed
                FROM {TestDatabase.Schema}.delivery_log AS u WHERE u.notification_id = ANY(@Urgent)) AS p
            """, new { Bulk = bulk.ToArray(), Urgent = urgent.ToArray() });
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
