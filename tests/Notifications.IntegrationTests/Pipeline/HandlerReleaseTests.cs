using System.Globalization;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// A handler takes its next delivery once it has sent one, and leaves that one's log write and ack to finish meanwhile. With
/// one handler and the delivery log's writes held back by a lock the test holds on the table, all three messages reach the
/// relay while none is logged; let go, each is logged as sent once and acked (nothing goes back to the queue at shutdown).
/// A handler that waited for each log write would send the first and then wait for the lock.
/// </summary>
[Collection("services")]
public sealed class HandlerReleaseTests
{
    private const int Total = 3;
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task OneHandler_LogWritesHeldBack_SendsTheNextMeanwhile_ThenEachLoggedAndAckedOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var queue = await QueueProbe.OpenAsync(broker);
        await using var sink = await SmtpSink.StartAsync();

        // Reads of the log go on (a SHARE ROW EXCLUSIVE lock lets them); its inserts wait for the lock.
        await using var holder = await TestDatabase.OpenAsync();
        await using var held = await holder.BeginTransactionAsync();
        await holder.ExecuteAsync($"LOCK TABLE {TestDatabase.Schema}.delivery_log IN SHARE ROW EXCLUSIVE MODE", transaction: held);

        await broker.PublishShippedAsync(Enumerable.Range(1, Total).Select(id => (long)id));

        await using var consumer = WorkerProcess.Start("Consumer", broker,
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(CultureInfo.InvariantCulture)), ("Smtp:Security", "None"),
            ("Consumer:Handlers", "1"), ("Consumer:Prefetch", "8"));
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(sink.MessageCount()), n => n == Total, Patience, "all sent by the one handler");
        Assert.Equal(0, await db.CountLogAsync("sent"));

        await held.RollbackAsync();
        await consumer.WaitWhileRunningAsync(() => db.CountLogAsync("sent"), n => n == Total, Patience, "each logged once the lock is gone");
        await consumer.TerminateAsync();
        Assert.Equal(0, await consumer.WaitForExitAsync(TimeSpan.FromSeconds(40)));
        await Eventually.WaitAsync(queue.ConsumersAsync, n => n == 0, Patience, "consumer gone from the queue");

        Assert.Equal(0u, await queue.ReadyAsync());
        Assert.All(Enumerable.Range(1, Total), id => Assert.Equal(1, sink.CountByNotificationId().GetValueOrDefault(id)));
        Assert.Equal(Total, sink.MessageCount());
    }
}
