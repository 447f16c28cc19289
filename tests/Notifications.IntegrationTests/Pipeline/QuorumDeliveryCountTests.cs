using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// What the installed RabbitMQ (3.10) counts toward a quorum work queue's <c>x-delivery-limit</c>: every way a message
/// handed out comes back unacked — a nack with requeue, and a channel closed with it unacked alike (later versions count
/// fewer returns; the consumer relies on neither). So the consumer never hands a message back to wait out an outage (docs/reliability.md, "Infrastructure
/// breaker"): it keeps it, unacked, and consumes no more until the outage is over.
/// </summary>
[Collection("services")]
public sealed class QuorumDeliveryCountTests
{
    private const int Limit = 2;
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData("nack with requeue")]
    [InlineData("channel closed unacked")]
    public async Task HandedBack_LimitPlusOneTimes_TheBrokerDeadLettersIt(string how)
    {
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum, deliveryLimit: Limit);
        await using var connection = await new ConnectionFactory { Uri = broker.Options.Uri }.CreateConnectionAsync();
        await broker.PublishRawAsync("{}"u8.ToArray(), "application/json");

        for (int handedOut = 1; handedOut <= Limit + 1; handedOut++)
        {
            Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterInbox));
            await using var channel = await connection.CreateChannelAsync();
            var message = await Eventually.WaitAsync(() => channel.BasicGetAsync(broker.Options.Queue, autoAck: false), m => m is not null, Patience, "the message");
            if (how == "nack with requeue")
            {
                await channel.BasicNackAsync(message!.DeliveryTag, multiple: false, requeue: true);
            }

            await channel.CloseAsync();
        }

        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterInbox), n => n == 1, Patience, "dead-lettered by the broker");
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
    }
}
