using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;

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
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Sigterm_EnvelopesOf50HalfSent_InFlightFinishedAndEachIdOnceAtTheServer(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
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
