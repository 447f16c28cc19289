using System.Diagnostics;
using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;
using Notifications.Shared.Hosting;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// An endpoint down (its port closed) for a while under a consumer process with the product's envelopes of 50 and retry
/// delays (issue 27, defect 1). Its breaker opens and parks its notifications in a delay queue without spending an attempt
/// until the break ends: nothing dead-lettered, each delivered once after the endpoint returns, the work queue handing out
/// few messages meanwhile and the consumer near idle. On quorum queues (as the stacks deploy), where every requeue counts
/// toward the delivery limit, and on classic ones, where a requeue loop spins a core.
/// </summary>
[Collection("services")]
public sealed class EndpointOutageTests(ITestOutputHelper output)
{
    private const string Endpoint = "partner-down";
    private const int Warmup = 50;
    private const int Rows = 1_000;
    private const int EnvelopeSize = 50;
    private const int Handlers = 32;
    private static readonly TimeSpan Outage = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan Break = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    // A consumer that waits is all but idle: heartbeats, the refresh loops, a park now and then (measured without the
    // runtime's compiling of code run for the first time). One spinning on requeues takes a whole core (less on a loaded
    // machine, still far above this).
    private const double IdleCores = 0.15;

    [Theory]
    [InlineData(RabbitQueueType.Quorum)]
    [InlineData(RabbitQueueType.Classic)]
    public async Task EndpointDown_ItsNotificationsParkedUnspent_DeliveredOnceAfterItReturns_ConsumerIdleMeanwhile(RabbitQueueType queueType)
    {
        await using var scene = await WebhookScene.StartAsync(queueType: queueType, retryDelays: new RabbitMqOptions().RetryDelays);
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        var before = await scene.InsertAsync(Endpoint, Warmup);
        await using var consumer = WorkerProcess.Start("Consumer", scene.Broker,
            ("Consumer:Handlers", Handlers.ToString(CultureInfo.InvariantCulture)), ("Relay:BreakDuration", Break.ToString("c", CultureInfo.InvariantCulture)));
        await using var producer = WorkerProcess.Start("Producer", scene.Broker);
        // The endpoint works at first, then goes down.
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(before.Count(id => scene.Accepted(id).Count > 0)), n => n == Warmup, Patience,
            "the first notifications delivered");
        await scene.Receiver.StopAsync();
        var ids = await scene.InsertAsync(Endpoint, Rows);
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(consumer.Output), o => o.Contains($"Circuit breaker webhook:{Endpoint} opened", StringComparison.Ordinal),
            Patience, "the endpoint's breaker open");
        var open = Stopwatch.StartNew();
        await producer.WaitWhileRunningAsync(() => scene.Db.CountAsync("outbox"), n => n == 0, Patience, "every row published");

        // Everything is in the consumer's hands or parked: the endpoint stays down for Outage more (the fault's length, not a
        // wait for a condition), and the consumer's CPU is measured meanwhile.
        var down = Stopwatch.StartNew();
        double cpuBefore = consumer.WorkCpuSeconds();
        await Task.Delay(Outage);
        double cores = (consumer.WorkCpuSeconds() - cpuBefore) / down.Elapsed.TotalSeconds;
        long dead = await scene.Db.CountAsync("dead_letter") + await scene.Broker.CountAsync(scene.Broker.Options.DeadLetterInbox);
        using var management = BrokerManagement.Create();
        var (_, redelivered) = await management.DeliveredFromAsync(BrokerManagement.VhostOf(scene.Broker.Options.Uri), scene.Broker.Options.Queue);
        int envelopes = (Warmup + Rows + EnvelopeSize - 1) / EnvelopeSize;
        output.WriteLine($"{queueType}, endpoint down {down.Elapsed.TotalSeconds:F1} s after its breaker opened: consumer CPU {cores:F3} cores; "
            + $"{redelivered} redeliveries from the work queue (the broker's statistics, a few seconds behind); {dead} dead letters; "
            + $"load {File.ReadAllText("/proc/loadavg").Trim()}");
        Assert.Equal(0, dead);
        Assert.True(cores < IdleCores, $"the consumer used {cores:F2} cores while the endpoint was down");
        // Nothing turned away goes back to the work queue in its place: what the broker hands out again is only what a
        // closed channel returned, an envelope at most.
        Assert.InRange(redelivered, 0, envelopes);

        await scene.Receiver.RestartAsync();
        await consumer.WaitWhileRunningAsync(() => Task.FromResult(ids.Count(id => scene.Accepted(id).Count > 0)), n => n == Rows, Patience,
            "every notification delivered after the endpoint returned");
        long delivered = (await management.DeliveredFromAsync(BrokerManagement.VhostOf(scene.Broker.Options.Uri), scene.Broker.Options.Queue)).Delivered;
        // Each envelope, and each single message retried before the breaker opened (one for each send that failed while the
        // first ones were delivered in the breaker's window), is handed out once, then once more each time its park ends: once
        // a break while the breaker is open, once more after.
        long budget = (envelopes + Warmup + Handlers) * (long)((open.Elapsed / Break) + 2);
        output.WriteLine($"the work queue handed out {delivered} messages in all (budget {budget})");
        Assert.InRange(delivered, envelopes, budget);
        Assert.All(before.Concat(ids), id => Assert.Single(scene.Accepted(id)));
        Assert.Equal(0, await scene.Db.CountAsync("dead_letter"));
        Assert.Empty(await scene.Broker.DrainDeadLettersAsync());
    }
}
