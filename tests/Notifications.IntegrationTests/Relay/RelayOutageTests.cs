using System.Globalization;
using System.Text.RegularExpressions;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Shutdown;
using Notifications.Shared.Hosting;
using Polly.CircuitBreaker;

namespace Notifications.IntegrationTests.Relay;

/// <summary>
/// The relay (the smtp-sink) down for far longer than all retry delays together, on the real services: the
/// breaker opens, the consumer leaves the work queue, nothing spends its attempts or is dead-lettered, and
/// delivery resumes by itself once the relay is back.
/// </summary>
[Collection("services")]
[Trait("Category", "Outage")]
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

    // Issue 27 (5): the breaker's probe was taken only from the first open channel, a standard-lane one: with the standard
    // queue empty no probe was ever taken, the breaker stayed open and urgent messages waited after the relay came back.
    // Urgent rows only, in envelopes of 50, the relay down from the start, on the queue type the stacks deploy too.
    [Theory]
    [InlineData(RabbitQueueType.Classic)]
    [InlineData(RabbitQueueType.Quorum)]
    public async Task RelayDown_OnlyUrgentRowsWaiting_ProbeTakenFromTheUrgentLaneAndAllDeliveredAfterwards(RabbitQueueType queueType)
    {
        const int Urgent = 150;
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(retryDelays: [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2)], queueType: queueType);
        await using var sink = await SmtpSink.StartAsync();
        await sink.StopAsync();
        var ids = await db.InsertAsync(Urgent, "Reset your password", priority: "urgent");

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Relay:BreakDuration", "00:00:01"), ("Relay:SamplingDuration", "00:00:05")))
        await using (await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50")))
        {
            var relay = consumer.Get<RelayBreaker>();
            await Eventually.WaitAsync(() => Task.FromResult(relay.State), s => s != CircuitState.Closed, Patience, "breaker opened");
            await Eventually.WaitAsync(() => broker.ConsumersAsync(broker.Options.UrgentQueue), n => n == 0, Patience, "consumer left the urgent queue");
            // Past a probe or two on the dead relay, with nothing but urgent messages waiting.
            await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "every row published");
            Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));

            await sink.RestartAsync();
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
            await Eventually.WaitAsync(() => Task.FromResult(relay.State), s => s == CircuitState.Closed, Patience, "breaker closed");
            await Eventually.WaitAsync(() => broker.ConsumersAsync(broker.Options.UrgentQueue), n => n == 1, Patience, "consuming the urgent queue again");
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }

    // Issue 27 (9): an envelope whose unsettled items could not be put back into the work queue was requeued whole after five
    // tries a second apart, its settled items with it: each dead letter already made was published again when it came back.
    // The relay goes down mid-envelope (every other row is dead-lettered at once), and the broker refuses every publish into
    // the work queue (a policy, as a full queue would) for longer than those five tries; counted at the dead queue.
    [Theory]
    [InlineData(RabbitQueueType.Classic)]
    [InlineData(RabbitQueueType.Quorum)]
    public async Task RelayDownMidEnvelopeWorkQueueRefusingPublishes_UnsettledItemsWaitAndNoDeadLetterIsPublishedTwice(RabbitQueueType queueType)
    {
        var db = await TestDatabase.CleanAsync();
        // The sends cut by the outage wait in their delay queue until the work queue takes publishes again.
        await using var broker = await TestBroker.CreateAsync(retryDelays: [TimeSpan.FromSeconds(20)], queueType: queueType);
        // DATA answered after a second, so sends are still under way when the relay goes (at full speed the valid rows could
        // all be sent before, and the breaker would never open); back at full speed after the outage.
        await using var sink = await SmtpSink.StartAsync("-w 1");
        var (valid, invalid) = await db.InsertHalfInvalidAsync(600);
        using var management = BrokerManagement.Create();
        string vhost = BrokerManagement.VhostOf(broker.Options.Uri);
        string policy = $"refuse-{broker.Options.Queue}";

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink,
            ("Relay:BreakDuration", "00:00:02"), ("Relay:SamplingDuration", "00:00:05"), ("Relay:MinimumThroughput", "2")))
        {
            await using (await WorkerHost.StartProducerAsync(broker, ("Producer:EnvelopeSize", "50")))
            {
                await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "every row published");
            }

            await sink.WaitForMessagesAsync(valid.Count / 6, Patience);
            await management.RefusePublishesAsync(vhost, policy, broker.Options.Queue);
            try
            {
                await sink.StopAsync();
                var relay = consumer.Get<RelayBreaker>();
                await Eventually.WaitAsync(() => Task.FromResult(relay.State), s => s != CircuitState.Closed, Patience, "breaker opened");
                // Refused for longer than the five tries a second apart after which the envelopes went back whole.
                await Task.Delay(TimeSpan.FromSeconds(8));
            }
            finally
            {
                await management.DeletePolicyAsync(vhost, policy);
            }

            await sink.RestartAsync();
            await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId().Count), n => n >= valid.Count, Patience, "every valid id at the server");
            await Eventually.WaitAsync(() => db.CountAsync("dead_letter"), n => n >= invalid.Count, Patience, "every invalid id recorded dead");
            await Eventually.WaitAsync(async () => (await broker.NonEmptyQueuesAsync()).Keys.Where(q => q != broker.Options.DeadLetterQueue).Count(),
                n => n == 0, Patience, "every queue but the dead queue drained");
        }

        var deadIds = (await broker.DrainDeadLettersAsync()).Select(d => EnvelopeShutdownTests.DeadLetterId(d.Body)).ToList();
        var twice = deadIds.GroupBy(id => id).Where(g => g.Count() > 1).Select(g => g.Key).ToList();
        Assert.True(twice.Count == 0, $"{twice.Count} dead letters published more than once, e.g. {string.Join(", ", twice.Take(5))}");
        Assert.Equal(invalid.Order(), deadIds.Order());
        Assert.All(valid, id => Assert.True(sink.CountByNotificationId().ContainsKey(id), $"{id} lost"));
    }

    // Issue 16 (1): with envelopes, an outage made copies: an item copied to the tail was requeued again with its envelope,
    // and both copies were later sent (or skipped as duplicates). The product's breaker and retry settings, two consumer
    // processes, envelopes of 50, the relay killed in the middle of the flow and down past one failed probe.
    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task RelayKilledMidFlow_TwoConsumersEnvelopesOf50_NoCopyIsMadeAndEveryQueueEndsEmpty(string mode)
    {
        const int Count = 3_000;
        const int Handlers = 16;
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(retryDelays: new Notifications.Shared.Hosting.RabbitMqOptions().RetryDelays);
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(Count);
        (string, string)[] settings =
        [
            ("Consumer:DeliveryMode", mode), ("Consumer:Handlers", Handlers.ToString(CultureInfo.InvariantCulture)),
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(CultureInfo.InvariantCulture)), ("Smtp:Security", "None"),
        ];
        await using var first = WorkerProcess.Start("Consumer", broker, settings);
        await using var second = WorkerProcess.Start("Consumer", broker, settings);
        await using var producer = WorkerProcess.Start("Producer", broker, ("Producer:EnvelopeSize", "50"));

        await sink.WaitForMessagesAsync(Count / 10, Patience);
        await sink.StopAsync();
        // Past the first probe (the breaker's 15 s), which fails: the second, once the relay is back, closes it.
        await Task.Delay(TimeSpan.FromSeconds(20));
        await sink.RestartAsync();

        // At most once may lose what was in the handlers when the relay died (a send cut after its final ".").
        int inFlight = 2 * Handlers;
        // Every notification ends in the log as sent, or at most once as marked and never sent.
        await Eventually.WaitAsync(async () => await db.CountLogAsync("sent") + await db.CountLogAsync("sending"), n => n == Count,
            Patience, "every notification logged after the relay returned");
        await Task.Delay(TimeSpan.FromSeconds(3));
        await first.TerminateAsync();
        await second.TerminateAsync();
        await producer.TerminateAsync();
        Assert.Equal(0, await first.WaitForExitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, await second.WaitForExitAsync(TimeSpan.FromSeconds(30)));

        // No copies: nothing skipped as already sent, in either process.
        Assert.Equal(0, DuplicatesSkipped(first.Output) + DuplicatesSkipped(second.Output));
        var received = sink.CountByNotificationId();
        int duplicated = received.Values.Sum(n => n - 1);
        int lost = ids.Count(id => !received.ContainsKey(id));
        if (mode == "AtLeastOnce")
        {
            // Only a send cut between the server's "." and its reply is sent again.
            Assert.Equal(0, lost);
            Assert.InRange(duplicated, 0, inFlight);
        }
        else
        {
            Assert.Equal(0, duplicated);
            Assert.InRange(lost, 0, inFlight);
        }

        string[] queues = [.. broker.Options.WorkQueues, broker.Options.DeadLetterQueue,
            .. Enumerable.Range(1, broker.Options.RetryDelays.Length).Select(broker.Options.RetryQueue)];
        foreach (string queue in queues)
        {
            Assert.True(await broker.CountAsync(queue) == 0, $"{queue} is not empty");
        }
    }

    private static int DuplicatesSkipped(string output)
    {
        var stopped = Regex.Match(output, @"Consumer stopped: \d+ delivered, (\d+) duplicates skipped");
        Assert.True(stopped.Success, "the consumer logged no 'Consumer stopped' line");
        return int.Parse(stopped.Groups[1].Value, CultureInfo.InvariantCulture);
    }
}
