using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>
/// SIGTERM to a consumer process with handlers in the middle of sends: it stops taking work, lets the
/// sends in flight finish, records and acks them, and exits 0; every other message is back in the queue.
/// </summary>
[Collection("services")]
public sealed class ConsumerShutdownTests
{
    private const int Total = 200;
    private const int Handlers = 8;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Sigterm_HandlersMidSend_FinishAckAndExitZeroWithNothingLost()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var queue = await QueueProbe.OpenAsync(broker);
        await broker.PublishShippedAsync(Enumerable.Range(1, Total).Select(id => (long)id));

        // The relay answers DATA after a second: each send takes that long, and the sink shows which are under way.
        await using var sink = await SmtpSink.StartAsync("-w 1");
        await using var consumer = WorkerProcess.Start("Consumer", broker,
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(CultureInfo.InvariantCulture)), ("Smtp:Security", "None"),
            ("Consumer:Handlers", Handlers.ToString(CultureInfo.InvariantCulture)), ("Consumer:Prefetch", "32"));
        // The signal comes while every handler is inside a send of a later round (the first round recorded, all eight
        // transactions open at the relay): however slow the machine, not between two sends.
        await consumer.WaitWhileRunningAsync(() => db.CountLogAsync("sent"), n => n >= Handlers, Patience, "first round of sends recorded");
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(sink.InProgressCount()), n => n >= Handlers, Patience, "every handler mid-send");
        long sentAtSignal = await db.CountLogAsync("sent");
        await consumer.TerminateAsync();

        int exitCode = await consumer.WaitForExitAsync(TimeSpan.FromSeconds(40));
        await Eventually.WaitAsync(queue.ConsumersAsync, n => n == 0, Patience, "consumer gone from the queue");
        long sent = await db.CountLogAsync("sent");
        uint inQueue = await queue.ReadyAsync();

        string output = consumer.Output;
        Assert.True(exitCode == 0, $"exit code {exitCode}{Environment.NewLine}{output}");
        Assert.True(sent > sentAtSignal, $"the sends in flight at SIGTERM were not recorded: {sent} sent, {sentAtSignal} at the signal");
        Assert.True(inQueue > 0, "the queue drained before the signal: the test proved nothing");
        // A message sent and recorded but not acked would be back in the queue as well: more than Total.
        Assert.Equal(Total, sent + inQueue);
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        Assert.Contains("Application is shutting down", output, StringComparison.Ordinal);
        Assert.Contains($"Consumer stopped: {sent} delivered", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Shutdown timeout reached", output, StringComparison.Ordinal);
    }
}
