using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// The whole pipeline on the real services, checked where the effects land: what the SMTP server
/// received (counted per notification id), the outbox table, the queues and the delivery log.
/// </summary>
[Collection("services")]
public sealed class PipelineTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(3);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Pipeline_TenThousandNotifications_EachReceivedExactlyOnceAtSmtpServer(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(10_000);

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        await using (var producer = await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
        }

        AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(0, await db.CountAsync("outbox"));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        Assert.Equal(ids.Count, await db.CountLogAsync("sent"));
    }

    [Fact]
    public async Task Producers_TwoAtOnce_PublishEveryRowExactlyOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(10_000);

        // Small batches so the two producers interleave many claims on the same rows' neighbourhood.
        await using (var first = await WorkerHost.StartProducerAsync(broker, ("Producer:BatchSize", "100")))
        await using (var second = await WorkerHost.StartProducerAsync(broker, ("Producer:BatchSize", "100")))
        {
            await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "outbox drained");
            var firstStats = first.Get<Notifications.Producer.ProducerStats>();
            var secondStats = second.Get<Notifications.Producer.ProducerStats>();
            Assert.True(firstStats.Published > 0 && secondStats.Published > 0, "both producers took part");
            Assert.Equal(ids.Count, firstStats.Published + secondStats.Published);
        }

        // No consumer yet: the queue holds exactly what was claimed, once each (in envelopes: read, then put back).
        await using (var probe = await Shutdown.QueueProbe.OpenAsync(broker))
        {
            var queued = await probe.PeekIdsAsync((int)await probe.ReadyAsync(), Patience);
            Assert.Equal(ids.Order(), queued.Order());
        }

        Assert.True(await broker.CountAsync(broker.Options.Queue) < ids.Count / 10, "the rows travel in envelopes, not a message each");

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
        }

        AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
    }

    internal static void AssertExactlyOnce(IReadOnlyList<long> ids, IReadOnlyDictionary<long, int> received)
    {
        var missing = ids.Where(id => !received.ContainsKey(id)).Take(10).ToList();
        var duplicated = received.Where(kv => kv.Value > 1).Select(kv => kv.Key).Take(10).ToList();
        var unexpected = received.Keys.Except(ids).Take(10).ToList();
        Assert.True(missing.Count == 0, $"lost (never received): {string.Join(", ", missing)}");
        Assert.True(duplicated.Count == 0, $"received more than once: {string.Join(", ", duplicated)}");
        Assert.True(unexpected.Count == 0, $"received but never committed: {string.Join(", ", unexpected)}");
        Assert.Equal(ids.Count, received.Count);
    }
}
