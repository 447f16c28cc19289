using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>
/// At most once, SIGTERM with no time for in-flight sends (ShutdownTimeout 0): those handlers have
/// already marked and acked their messages, so aborting them would lose them. They must give the mark
/// back and queue a copy instead.
/// </summary>
[Collection("services")]
public sealed class AtMostOnceShutdownTests
{
    private const int Total = 200;
    private const int Handlers = 8;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Sigterm_AtMostOnceSendsAborted_HandedBackNotLost()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var queue = await QueueProbe.OpenAsync(broker);
        for (int id = 1; id <= Total; id++)
        {
            await broker.PublishRawAsync(MessageSerializer.Serialize(
                new NotificationMessage(id, $"user{id}@example.com", "s", "b", false, DateTimeOffset.UtcNow, null)), MessageSerializer.ContentType);
        }

        await using var consumer = WorkerProcess.Start("Consumer", broker,
            ("Consumer:DeliveryMode", "AtMostOnce"), ("Consumer:Sender", "Simulated"), ("Consumer:SimulatedSendDelay", "00:00:02"),
            ("Consumer:Handlers", Handlers.ToString(CultureInfo.InvariantCulture)), ("Consumer:Prefetch", "32"),
            ("Consumer:ShutdownTimeout", "00:00:00"));
        await consumer.WaitWhileRunningAsync(() => db.CountLogAsync("sending"), n => n >= Handlers, Patience, "handlers mid-send");
        await consumer.TerminateAsync();

        Assert.Equal(0, await consumer.WaitForExitAsync(TimeSpan.FromSeconds(40)));
        await Eventually.WaitAsync(queue.ConsumersAsync, n => n == 0, Patience, "consumer gone from the queue");
        long sent = await db.CountLogAsync("sent");
        long marked = await db.CountLogAsync("sending");
        // The handed-back copies pass through the retry queue (200 ms) back to the work queue.
        uint queued = await Eventually.WaitAsync(
            async () => await broker.CountAsync(broker.Options.Queue) + await broker.CountAsync(broker.Options.RetryQueue(1)),
            n => n + sent >= Total, Patience, "handed-back copies queued");

        Assert.Contains("Shutdown timeout reached", consumer.Output, StringComparison.Ordinal);
        Assert.Equal(0, marked);
        Assert.Equal(Total, sent + queued);
    }
}
