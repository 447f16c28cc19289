using System.Globalization;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>
/// Shutdown as deployed: rows through the real producer in envelopes of 50 (standard and urgent lanes), a
/// consumer process sending to a real SMTP server that answers DATA slowly, SIGTERM with envelopes half-done.
/// A second consumer then drains; counted at the server, every id arrives once, and every queue ends empty.
/// </summary>
[Collection("services")]
public sealed class EnvelopeShutdownTests
{
    private const int Standard = 400;
    private const int Urgent = 100;
    private const int Handlers = 8;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("AtLeastOnce", RabbitQueueType.Classic)]
    [InlineData("AtMostOnce", RabbitQueueType.Classic)]
    [InlineData("AtLeastOnce", RabbitQueueType.Quorum)]
    [InlineData("AtMostOnce", RabbitQueueType.Quorum)]
    public async Task Sigterm_EnvelopesOf50HalfSent_InFlightFinishedAndEachIdOnceAtTheServer(string mode, RabbitQueueType queueType)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: queueType);
        await using var sink = await SmtpSink.StartAsync("-w 1");
        var ids = await SeedAsync(db);
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50"));

        await using var consumer = StartConsumer(broker, sink, mode);
        // Envelopes half sent, and the signal while the handlers are inside sends (open at the relay), not between two.
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(sink.MessageCount()), n => n >= Handlers, Patience, "first round of sends done");
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(sink.InProgressCount()), n => n >= Handlers, Patience, "handlers mid-send");
        int atSignal = sink.MessageCount();
        await consumer.TerminateAsync();

        int exitCode = await consumer.WaitForExitAsync(TimeSpan.FromSeconds(40));
        int atExit = sink.MessageCount();
        Assert.True(exitCode == 0, $"exit code {exitCode}{Environment.NewLine}{consumer.Output}");
        Assert.True(atExit > atSignal, $"the sends in flight at SIGTERM were not finished: {atExit} at the server, {atSignal} at the signal");
        Assert.True(atExit < ids.Count, "everything was sent before the signal: the test proved nothing");
        Assert.DoesNotContain("Shutdown timeout reached", consumer.Output, StringComparison.Ordinal);

        await DrainAndAssertEachIdOnceAsync(db, broker, sink, mode, ids);
    }

    [Fact]
    public async Task Sigterm_AtMostOnceSendsAbortedInEnvelopesOf50_HandedBackAndEachIdOnceAtTheServer()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        // DATA answered after 30 s: every handler is inside a send, before its final ".", when the signal comes.
        await using var sink = await SmtpSink.StartAsync("-w 30");
        var ids = await SeedAsync(db);
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50"));

        await using var consumer = StartConsumer(broker, sink, "AtMostOnce", ("Consumer:ShutdownTimeout", "00:00:00"));
        await consumer.WaitWhileRunningAsync(() => db.CountLogAsync("sending"), n => n >= Handlers, Patience, "handlers mid-send");
        await consumer.TerminateAsync();

        Assert.Equal(0, await consumer.WaitForExitAsync(TimeSpan.FromSeconds(40)));
        Assert.Contains("Shutdown timeout reached", consumer.Output, StringComparison.Ordinal);
        Assert.Equal(0, sink.MessageCount());
        // Each aborted send gave its mark back: nothing marked stays behind to be lost.
        Assert.Equal(0, await db.CountLogAsync("sending"));

        await DrainAndAssertEachIdOnceAsync(db, broker, sink, "AtMostOnce", ids);
    }

    // Issue 27 (9): at shutdown the handlers stopped mid-envelope and the envelope went back whole, its settled items with
    // it: the next consumer published each dead letter already made a second time (a redelivered item finishes the dead
    // letter its attempt recorded). Only the unsettled items may go back. Envelopes of 50, every other row dead-lettered
    // at once (a recipient with consecutive dots), the others slow to send, SIGTERM with envelopes half-done; counted at the dead queue.
    [Theory]
    [InlineData("AtLeastOnce", RabbitQueueType.Classic)]
    [InlineData("AtMostOnce", RabbitQueueType.Classic)]
    [InlineData("AtLeastOnce", RabbitQueueType.Quorum)]
    [InlineData("AtMostOnce", RabbitQueueType.Quorum)]
    public async Task Sigterm_EnvelopesWithItemsDeadLettered_OnlyUnsettledItemsGoBackAndEachDeadLetterPublishedOnce(string mode, RabbitQueueType queueType)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: queueType);
        await using var sink = await SmtpSink.StartAsync("-w 1");
        var (valid, invalid) = await db.InsertHalfInvalidAsync(Standard);
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50"));

        await using var consumer = StartConsumer(broker, sink, mode);
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(sink.MessageCount()), n => n >= 2 * Handlers, Patience, "second round of sends under way");
        await consumer.TerminateAsync();
        Assert.Equal(0, await consumer.WaitForExitAsync(TimeSpan.FromSeconds(40)));
        Assert.True(sink.MessageCount() < valid.Count, "everything was sent before the signal: the test proved nothing");

        await sink.RestartAsync();
        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        {
            await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId().Count), n => n >= valid.Count, Patience, "every valid id at the server");
            await Eventually.WaitAsync(() => db.CountAsync("dead_letter"), n => n >= invalid.Count, Patience, "every invalid id recorded dead");
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.Queue), n => n == 0, Patience, "work queue drained");
        }

        var deadIds = (await broker.DrainDeadLettersAsync()).Select(d => DeadLetterId(d.Body)).ToList();
        var twice = deadIds.GroupBy(id => id).Where(g => g.Count() > 1).Select(g => g.Key).ToList();
        Assert.True(twice.Count == 0, $"{twice.Count} dead letters published more than once, e.g. {string.Join(", ", twice.Take(5))}");
        Assert.Equal(invalid.Order(), deadIds.Order());
        PipelineTests.AssertExactlyOnce(valid, sink.CountByNotificationId());
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }

    internal static long DeadLetterId(string body) => JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt64();

    private static async Task<IReadOnlyList<long>> SeedAsync(TestDatabase db) =>
        [.. await db.InsertAsync(Standard), .. await db.InsertAsync(Urgent, "Reset your password", priority: "urgent")];

    private static WorkerProcess StartConsumer(TestBroker broker, SmtpSink sink, string mode, params (string Key, string Value)[] settings) =>
        WorkerProcess.Start("Consumer", broker,
        [
            ("Consumer:DeliveryMode", mode), ("Consumer:Handlers", Handlers.ToString(CultureInfo.InvariantCulture)), ("Consumer:Prefetch", "4"),
            ("Consumer:UrgentHandlers", "4"), ("Consumer:UrgentPrefetch", "2"),
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(CultureInfo.InvariantCulture)), ("Smtp:Security", "None"), .. settings,
        ]);

    // The relay at full speed again and a second consumer: what the first left (envelopes requeued whole, copies
    // handed back) is sent, and what it sent is not sent again.
    private static async Task DrainAndAssertEachIdOnceAsync(TestDatabase db, TestBroker broker, SmtpSink sink, string mode, IReadOnlyList<long> ids)
    {
        await sink.RestartAsync();
        await using (var second = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        {
            await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId().Count), n => n >= ids.Count, Patience, "every id at the server");
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n >= ids.Count, Patience, "every send logged");
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(0, await db.CountAsync("outbox"));
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }
}
