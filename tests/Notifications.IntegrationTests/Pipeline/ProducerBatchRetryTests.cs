using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>The producer's Polly retry of a failed batch against the real broker and database.</summary>
[Collection("services")]
public sealed class ProducerBatchRetryTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    // Unbound, the work queue returns every publish: the batch fails and is rolled back, its channel is replaced (which
    // declares the topology, and so the binding, again) and the retry a second later publishes every row.
    [Fact]
    public async Task PublishBatch_WorkQueueUnboundMidRun_BatchRetriedOnANewChannelAndEveryRowQueuedOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "1"), ("Producer:MaxErrorBackoff", "00:00:02"));
        var stats = producer.Get<ProducerStats>();
        await TestDatabase.EnqueueAsync(new NewNotification("first@example.com", "First", "before the unbind"));
        await Eventually.WaitAsync(() => Task.FromResult(stats.Published), n => n == 1, Patience, "first row published");

        await broker.UnbindWorkQueueAsync();
        for (int i = 0; i < 20; i++)
        {
            await TestDatabase.EnqueueAsync(new NewNotification($"retry{i}@example.com", "Retried", "after the unbind"));
        }

        await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "outbox drained after the retry");

        Assert.InRange(stats.Failures, 1, 3);
        Assert.Equal(21, stats.Published);
        Assert.Equal(21u, await broker.CountAsync(broker.Options.Queue));
    }
}
