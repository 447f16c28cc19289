using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.Outcomes;

/// <summary>
/// A dead letter the broker makes on its own (here an envelope's time to live running out in the quorum work queue) is a
/// <c>notification.dead_lettered</c> event too: the consumer's dead-letter inbox records each item and writes its event in the
/// same transaction, and the app's endpoint (the Standard Webhooks receiver, verifying each signature) receives one per
/// notification with the broker's reason.
/// </summary>
[Collection("services")]
public sealed class BrokerDeadLetterOutcomeEventTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task EnvelopeExpiredInTheWorkQueue_EndpointSubscribedToDeadLettered_ReceivesOneSignedEventPerItem_WithTheBrokersReason()
    {
        await using var scene = await WebhookScene.StartAsync(queueType: RabbitQueueType.Quorum);
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.DeadLettered);
        var ids = await ClaimedAsync(scene, 3);

        // Nobody consumes the work queue while the envelope's time to live runs out: the broker dead-letters it to the inbox.
        await scene.Broker.PublishAsync(scene.Broker.Options.Queue, new BasicProperties
        {
            Persistent = true, ContentType = MessageSerializer.ContentType, Type = EnvelopeSerializer.EnvelopeType, Expiration = "1",
        }, EnvelopeSerializer.Pack([.. ids.Select(Body)]));
        await Eventually.WaitAsync(() => scene.Broker.CountAsync(scene.Broker.Options.DeadLetterInbox), n => n == 1, Patience, "the envelope in the inbox");
        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(OutcomeEventScene.Accepted(scene).Count), n => n == ids.Count, Patience,
                "a dead_lettered event for each item");
        }

        var events = OutcomeEventScene.Accepted(scene);
        Assert.Equal(ids.Order(), events.Select(e => e.NotificationId).Order());
        Assert.All(events, e => Assert.Equal((OutcomeEventTypes.DeadLettered, "email"), (e.Type, e.Channel)));
        Assert.All(events, e => Assert.Contains("\"reason\":\"expired: dead-lettered by the broker", e.Detail, StringComparison.Ordinal));
        Assert.Equal(ids.Count, await OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.DeadLettered));
        Assert.Equal(ids.Count, await scene.Db.CountAsync("dead_letter"));
        Assert.Equal(0, scene.Sink.MessageCount());
    }

    // Rows the producer would have claimed: committed ids, no longer in the outbox.
    private static async Task<IReadOnlyList<long>> ClaimedAsync(WebhookScene scene, int count)
    {
        var ids = await scene.Db.InsertAsync(count);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.outbox WHERE id = ANY(@Ids)", new { Ids = ids.ToArray() });
        return ids;
    }

    private static byte[] Body(long id) => MessageSerializer.Serialize(new NotificationMessage(
        id, $"user{id}@example.com", $"Order shipped #{id}", "Hello", IsHtml: false, DateTimeOffset.UtcNow, ExpiresAt: null));
}
