using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.AtMostOnce;

/// <summary>
/// Two copies of one notification (a producer's republish after a crash, a redelivered message) reach an at-most-once
/// consumer at once: only one may be sent. At most once has no in-process guard; the delivery log's mark decides, and the
/// marks of handlers that ask together share one statement. Counted at the SMTP server.
/// </summary>
[Collection("services")]
public sealed class AtMostOnceCopiesTests
{
    private const int Notifications = 300;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    // Issue 27 (2): the copies' marks shared a batch, the statement inserted the id once, and both callers were told they
    // own the send.
    [Theory]
    [InlineData(RabbitQueueType.Classic)]
    [InlineData(RabbitQueueType.Quorum)]
    public async Task TwoCopiesAtOnce_AtMostOnce_EachReceivedOnceAtTheSmtpServer(RabbitQueueType queueType)
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: queueType);
        await using var sink = await SmtpSink.StartAsync();
        for (long id = 1; id <= Notifications; id++)
        {
            // Side by side in the queue: two handlers take them at the same moment.
            byte[] body = MessageSerializer.Serialize(new NotificationMessage(id, $"user{id}@example.com", $"Order {id}", "Hello", false, DateTimeOffset.UtcNow, null));
            await broker.PublishRawAsync(body, MessageSerializer.ContentType);
            await broker.PublishRawAsync(body, MessageSerializer.ContentType);
        }

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", "AtMostOnce"), ("Consumer:Handlers", "32")))
        {
            var stats = consumer.Get<ConsumerStats>();
            await Eventually.WaitAsync(() => Task.FromResult(stats.Delivered + stats.Duplicates), n => n == 2 * Notifications, Patience,
                "every copy sent or skipped");
            await sink.WaitForMessagesAsync((int)stats.Delivered, Patience);
        }

        var received = sink.CountByNotificationId();
        var twice = received.Where(r => r.Value > 1).Select(r => r.Key).ToList();
        Assert.True(twice.Count == 0, $"{twice.Count} notifications received more than once at most once, e.g. {string.Join(", ", twice.Take(10))}");
        Assert.Equal(Notifications, received.Count);
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }
}
