using Notifications.Consumer;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Polly.CircuitBreaker;

namespace Notifications.IntegrationTests.Relay;

/// <summary>
/// The relay (the smtp-sink) down for far longer than all retry delays together, on the real services: the
/// breaker opens, the consumer leaves the work queue, nothing spends its attempts or is dead-lettered, and
/// delivery resumes by itself once the relay is back.
/// </summary>
[Collection("services")]
public sealed class RelayOutageTests
{
    private const int Before = 500;
    private const int During = 1_500;
    private static readonly TimeSpan Outage = TimeSpan.FromSeconds(15);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task RelayDown_LongerThanAllRetryDelays_NothingDeadLetteredAndAllDeliveredOnceAfterwards(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        // Three attempts within 3 s: without the breaker an outage of 15 s dead-letters everything it touches.
        await using var broker = await TestBroker.CreateAsync(retryDelays: [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2)]);
        await using var sink = await SmtpSink.StartAsync();
        var ids = (await db.InsertAsync(Before)).ToList();

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Consumer:DeliveryMode", mode), ("Relay:BreakDuration", "00:00:02"), ("Relay:SamplingDuration", "00:00:05")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            var relay = consumer.Get<RelayBreaker>();
            // The relay goes down between sends (killed mid-transaction, a send would have an unknown outcome
            // and at least once would send it again): the first batch is delivered and logged first.
            await sink.WaitForMessagesAsync(Before, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == Before, Patience, "first batch logged");
            await sink.StopAsync();
            var down = DateTime.UtcNow;
            ids.AddRange(await db.InsertAsync(During));

            await Eventually.WaitAsync(() => Task.FromResult(relay.State), s => s != CircuitState.Closed, Patience, "breaker opened");
            await Eventually.WaitAsync(() => broker.ConsumersAsync(broker.Options.Queue), n => n == 0, Patience, "consumer left the work queue");
            Assert.NotEqual(0, consumer.Get<ConsumerMetrics>().RelayState);
            await Task.Delay(TimeSpan.FromTicks(Math.Max(0, (Outage - (DateTime.UtcNow - down)).Ticks)));
            Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
            Assert.True(await broker.CountAsync(broker.Options.Queue) > 0, "the undelivered wait in the work queue");

            await sink.RestartAsync();
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
            Assert.Equal(CircuitState.Closed, relay.State);
            Assert.Equal(1u, await broker.ConsumersAsync(broker.Options.Queue));
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.DrainDeadLettersAsync());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
        Assert.Equal(0, await db.CountLogAsync("sending"));
    }
}
