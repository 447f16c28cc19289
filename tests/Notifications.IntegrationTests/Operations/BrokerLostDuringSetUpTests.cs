using System.Diagnostics;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Testing;
using Notifications.IntegrationTests.Chaos;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// The consumer's broker connection is lost after the connect and before its set-up is done (the broker closed it, or the
/// network cut it): the consumer waits for the client's recovery, sets up again and works — it does not stop. The
/// connection is cut by a proxy at a chosen channel.open of the set-up (<see cref="BlackholeProxy.RefuseAtChannelOpen"/>), and the
/// broker stays out of reach until the consumer has said it waits and the client has tried to reconnect.
/// </summary>
[Collection("services")]
public sealed class BrokerLostDuringSetUpTests
{
    private const int Rows = 40;
    private const int SetUpCut = 4025;
    private const int Started = 4000;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    // Issue 27: a fresh-clone run saw the consumer stop for good when the broker closed its connection mid set-up
    // (CreateChannelAsync threw, the BackgroundService faulted and the host stopped). With two standard channels the
    // set-up opens: 1 the topology's channel, 2 and 3 the standard lane's, 4 the urgent lane's; with a rate-limited domain
    // (all the rows' recipients are at example.com) 5 the rate-limit lanes' declaring channel and 6 the domain's lane.
    [Theory]
    [InlineData(1, false)]
    [InlineData(3, false)]
    [InlineData(4, false)]
    [InlineData(6, true)]
    public async Task Consumer_ConnectionCutDuringSetUp_WaitsForRecoveryThenStartsAndDeliversEachOnce(int cutAtChannelOpen, bool rateLimited)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var proxy = BlackholeProxy.Start(broker.Options.Uri.Port);
        var cut = proxy.RefuseAtChannelOpen(cutAtChannelOpen);
        string viaProxy = new UriBuilder(broker.Options.Uri) { Host = "127.0.0.1", Port = proxy.Port }.Uri.ToString();
        var ids = (await db.InsertAsync(Rows)).ToList();

        (string, string?)[] settings = [("RabbitMq:Uri", viaProxy), ("Consumer:Channels", "2"), .. rateLimited ? [("RateLimits:Domains:example.com", "1000/s")] : Array.Empty<(string, string?)>()];
        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink, settings))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            var stopping = consumer.Get<IHostApplicationLifetime>().ApplicationStopping;
            var logs = consumer.Services.GetFakeLogCollector();
            await cut.WaitAsync(Patience);
            // Either the host stops (the defect), or the consumer says it waits and the client has tried to reconnect meanwhile.
            await Eventually.WaitAsync(() => Task.FromResult(stopping.IsCancellationRequested || (Count(logs, SetUpCut) > 0 && proxy.Refused > 0)),
                done => done, Patience, "the consumer waiting for the connection's recovery, or its host stopping");
            Assert.False(stopping.IsCancellationRequested, "the consumer's host stopped:\n" + string.Join('\n',
                logs.GetSnapshot().Where(r => r.Level >= LogLevel.Warning).Select(r => $"{r.Level} {r.Category} [{r.Id.Id}] {r.Message} {r.Exception}")));
            Assert.Equal(0, Count(logs, Started));

            proxy.Restore();
            await consumer.WaitForLogAsync(Started, Patience);
            await sink.WaitForMessagesAsync(Rows, Patience);
            Assert.Equal(1, Count(logs, SetUpCut));
            Assert.Equal(1, Count(logs, Started));
            Assert.False(stopping.IsCancellationRequested);
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(0, await db.CountAsync("outbox"));
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }

    // The broker never comes back: the consumer waits (one line, however many reconnects the client tries meanwhile) and
    // stops promptly and cleanly when told to.
    [Fact]
    public async Task Consumer_ConnectionCutDuringSetUpAndNeverBack_WaitsWithoutSpinningAndStopsWhenAsked()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var proxy = BlackholeProxy.Start(broker.Options.Uri.Port);
        var cut = proxy.RefuseAtChannelOpen(1);
        string viaProxy = new UriBuilder(broker.Options.Uri) { Host = "127.0.0.1", Port = proxy.Port }.Uri.ToString();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("RabbitMq:Uri", viaProxy));
        var logs = consumer.Services.GetFakeLogCollector();
        await cut.WaitAsync(Patience);
        await Eventually.WaitAsync(() => Task.FromResult(Count(logs, SetUpCut) > 0 && proxy.Refused >= 3), done => done, Patience,
            "the consumer waiting while the client tried to reconnect three times");
        Assert.Equal(1, Count(logs, SetUpCut));

        var stopping = Stopwatch.StartNew();
        await consumer.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(stopping.Elapsed < TimeSpan.FromSeconds(10), $"stopped in {stopping.Elapsed.TotalSeconds:F1} s");
        Assert.Empty(logs.GetSnapshot().Where(r => r.Level >= LogLevel.Error).Select(r => $"{r.Category} [{r.Id.Id}] {r.Message} {r.Exception}"));
        Assert.Equal(1, Count(logs, SetUpCut));
        Assert.Equal(0, Count(logs, Started));
    }

    // The producer has no such window: it opens its channels inside its batch retry, so the cut is a failed batch, tried
    // again until the connection is back. Checked, not fixed (it passed before the consumer's fix too).
    [Fact]
    public async Task Producer_ConnectionCutAtItsFirstChannelOpen_TriesAgainAndPublishesEachOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var proxy = BlackholeProxy.Start(broker.Options.Uri.Port);
        var cut = proxy.RefuseAtChannelOpen(1);
        string viaProxy = new UriBuilder(broker.Options.Uri) { Host = "127.0.0.1", Port = proxy.Port }.Uri.ToString();
        var ids = (await db.InsertAsync(Rows)).ToList();

        await using (var producer = await WorkerHost.StartProducerAsync(broker, ("RabbitMq:Uri", viaProxy)))
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            var stopping = producer.Get<IHostApplicationLifetime>().ApplicationStopping;
            await cut.WaitAsync(Patience);
            await Eventually.WaitAsync(() => Task.FromResult(stopping.IsCancellationRequested || proxy.Refused > 0), done => done, Patience,
                "the producer's client reconnecting, or its host stopping");
            Assert.False(stopping.IsCancellationRequested, "the producer's host stopped");
            proxy.Restore();
            await sink.WaitForMessagesAsync(Rows, Patience);
            Assert.False(stopping.IsCancellationRequested);
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    private static int Count(FakeLogCollector logs, int eventId) => logs.GetSnapshot().Count(r => r.Id.Id == eventId);
}
