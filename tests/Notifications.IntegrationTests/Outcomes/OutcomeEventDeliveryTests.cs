using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Outcomes;

namespace Notifications.IntegrationTests.Outcomes;

/// <summary>
/// Outcome events through the real producer and consumer: emails to the SMTP sink, their events as webhooks to the
/// Standard Webhooks receiver, which verifies each signature (docs/outcome-events.md).
/// </summary>
[Collection("services")]
public sealed class OutcomeEventDeliveryTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task EmailsDelivered_EndpointSubscribedToDelivered_ReceivesOneSignedEventPerNotification()
    {
        await using var scene = await WebhookScene.StartAsync();
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.Delivered);
        var ids = await scene.Db.InsertAsync(20);

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(OutcomeEventScene.Accepted(scene).Select(e => e.NotificationId).Distinct().Count()),
                n => n == ids.Count, Patience, "a delivered event for each email accepted");
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == 2 * ids.Count, Patience, "emails and events logged 'sent'");
        }

        var events = OutcomeEventScene.Accepted(scene);
        Assert.Equal(ids.Order(), events.Select(e => e.NotificationId).Distinct().Order());
        Assert.All(events, e => Assert.Equal((OutcomeEventTypes.Delivered, "email"), (e.Type, e.Channel)));
        Assert.All(events, e => Assert.EndsWith("@example.com", e.Recipient, StringComparison.Ordinal));
        // Made once each, and its webhook-id is its own row's id: not the notification's.
        Assert.Equal(ids.Count, await OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Delivered));
        Assert.DoesNotContain(events, e => ids.Contains(long.Parse(e.EventId, System.Globalization.CultureInfo.InvariantCulture)));
        await scene.Sink.WaitForMessagesAsync(ids.Count, Patience);
    }

    [Fact]
    public async Task EmailsDelivered_NoEndpointSubscribed_NoEventMadeOrSent()
    {
        await using var scene = await WebhookScene.StartAsync();
        await OutcomeEventScene.SubscribeAsync(scene);
        var ids = await scene.Db.InsertAsync(20);

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == ids.Count, Patience, "emails logged 'sent'");
        }

        // An event is made in the transaction of its email's 'sent' row: none by now is none at all.
        Assert.Equal(0, await scene.Db.CountAsync("outcome_event"));
        Assert.Equal(0, await scene.Db.CountAsync("outbox"));
        Assert.Equal(ids.Count, await scene.Db.CountLogAsync("sent"));
        Assert.Empty(scene.Receiver.Deliveries);
    }

    [Fact]
    public async Task InvalidEmailDeadLettered_EndpointSubscribedToDeadLettered_ReceivesItsEventWithTheReason_AndNoDelivered()
    {
        await using var scene = await WebhookScene.StartAsync();
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.DeadLettered);
        var (valid, invalid) = await scene.Db.InsertHalfInvalidAsync(4);

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(OutcomeEventScene.Accepted(scene).Count), n => n == invalid.Count, Patience,
                "a dead_lettered event for each invalid email");
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == valid.Count + invalid.Count, Patience, "valid emails and events 'sent'");
        }

        var events = OutcomeEventScene.Accepted(scene);
        Assert.Equal(invalid.Order(), events.Select(e => e.NotificationId).Order());
        Assert.All(events, e => Assert.Equal(OutcomeEventTypes.DeadLettered, e.Type));
        Assert.All(events, e => Assert.Contains("\"reason\":", e.Detail, StringComparison.Ordinal));
        Assert.Equal(0, await OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Delivered));
    }
}
