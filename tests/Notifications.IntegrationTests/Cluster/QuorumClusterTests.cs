using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.Cluster;

/// <summary>
/// Quorum queues end to end on real brokers: the 3-node cluster of <c>scripts/cluster</c> (started by
/// <see cref="ClusterFixture"/> when it is not running, and stopped again afterwards then), the workers given
/// all three nodes as <c>RabbitMq:Endpoints</c>.
/// </summary>
[Collection("services")]
public sealed class QuorumClusterTests(ClusterFixture cluster) : IClassFixture<ClusterFixture>
{
    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Pipeline_QuorumQueuesOnThreeNodes_EachNotificationReceivedOnceQueuesReplicatedAndEmpty(string mode)
    {
        _ = cluster;
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(TestCluster.Uri, queueType: RabbitQueueType.Quorum, endpoints: TestCluster.Endpoints);
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(300);

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        await using (var producer = await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(ids.Count, TimeSpan.FromMinutes(2));
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.Queue), n => n == 0, TimeSpan.FromSeconds(30), "work queue empty");
        }

        var received = sink.CountByNotificationId();
        Assert.Equal(ids.Order(), received.Keys.Order());
        Assert.All(received.Values, copies => Assert.Equal(1, copies));
        Assert.Equal(0, await db.CountAsync("outbox"));
        // Every queue of the topology is a quorum queue with a member on each of the three nodes.
        string queues = await TestCluster.RunAsync("ctl 1 -q list_queues name type members");
        foreach (string queue in new[] { broker.Options.Queue, broker.Options.DeadLetterQueue, broker.Options.RetryQueue(1), broker.Options.RetryQueue(2) })
        {
            string line = queues.Split('\n').Single(l => l.StartsWith(queue + "\t", StringComparison.Ordinal));
            Assert.Contains("\tquorum\t", line, StringComparison.Ordinal);
            Assert.Equal(3, System.Text.RegularExpressions.Regex.Count(line, "notif-q[123]@localhost"));
        }
    }

    [Fact]
    public async Task WorkQueue_MessageHandedOutMoreOftenThanTheDeliveryLimit_BrokerDeadLettersIt()
    {
        _ = cluster;
        await using var broker = await TestBroker.CreateAsync(TestCluster.Uri, queueType: RabbitQueueType.Quorum, endpoints: TestCluster.Endpoints);
        var limited = new RabbitMqOptions { Exchange = broker.Options.Exchange, Queue = broker.Options.Queue, QueueType = RabbitQueueType.Quorum };
        Assert.Equal(limited.DeliveryLimit, broker.Options.DeliveryLimit);
        await broker.PublishRawAsync("{\"poison\":true}"u8.ToArray(), "application/json");

        // A consumer that dies on the message every time: each return counts as one delivery.
        var factory = new ConnectionFactory { Uri = TestCluster.Uri };
        await using var connection = await factory.CreateConnectionAsync(broker.Options.BrokerEndpoints());
        int handedOut = 0;
        for (; handedOut <= broker.Options.DeliveryLimit + 1; handedOut++)
        {
            await using var channel = await connection.CreateChannelAsync();
            var message = await Eventually.WaitAsync(() => channel.BasicGetAsync(broker.Options.Queue, autoAck: false),
                m => m is not null || handedOut > broker.Options.DeliveryLimit, TimeSpan.FromSeconds(10), "the message back on the work queue");
            if (message is null)
            {
                break;
            }

            await channel.BasicRejectAsync(message.DeliveryTag, requeue: true);
        }

        // Into the dead-letter inbox, where a consumer would record it (none runs here).
        var dead = await Eventually.WaitAsync(() => broker.DrainDeadLettersAsync(broker.Options.DeadLetterInbox), d => d.Count > 0, TimeSpan.FromSeconds(10), "the dead letter");
        var (_, body, headers) = Assert.Single(dead);
        Assert.Equal("{\"poison\":true}", body);
        Assert.Equal(broker.Options.DeliveryLimit + 1, handedOut);
        var death = Assert.IsAssignableFrom<IDictionary<string, object?>>(Assert.IsAssignableFrom<IList<object>>(headers["x-death"])[0]);
        Assert.Equal("delivery_limit", System.Text.Encoding.UTF8.GetString((byte[])death["reason"]!));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
    }
}
