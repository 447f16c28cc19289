using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;

namespace Notifications.IntegrationTests.Producer;

/// <summary>
/// <c>Producer:MaxQueued</c> on the real broker and database: the standard lane claims no more while the work queue holds the
/// bound, and the backlog stays in the outbox. The lane reads the queue's depth only now and then (<see cref="WorkQueueDepth"/>),
/// counting what it published since, so the bound holds between readings too.
/// </summary>
[Collection("services")]
public sealed class WorkQueueBoundTests
{
    private const int Rows = 2_000;
    private const int Bound = 300;
    private const int Batch = 50;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    // No consumer: the queue fills to the bound and stays there. A claim is made while fewer than the bound are counted, so
    // the queue ends at the bound, and at most a batch over it; the rest of the rows wait in the outbox, none lost.
    [Fact]
    public async Task MaxQueued_NoConsumer_TheQueueHoldsTheBoundAndTheRestWaitsInTheOutbox()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await db.InsertAsync(Rows);
        await using var producer = await WorkerHost.StartProducerAsync(
            broker, ("Producer:EnvelopeSize", "1"), ("Producer:MaxQueued", $"{Bound}"), ("Producer:BatchSize", $"{Batch}"));
        var stats = producer.Get<ProducerStats>();

        // Held back again and again: the lane has met the bound and keeps to it.
        await Eventually.WaitAsync(() => Task.FromResult(stats.HeldBack), n => n >= 20, Patience, "the lane held back by the bound");

        uint queued = await broker.CountAsync(broker.Options.Queue);
        Assert.InRange(queued, (uint)Bound, (uint)(Bound + Batch - 1));
        Assert.Equal(queued, (uint)stats.Published);
        Assert.Equal(Rows - queued, await db.CountAsync("outbox"));
    }
}
