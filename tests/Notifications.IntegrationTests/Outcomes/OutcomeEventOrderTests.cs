using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Outcomes;

namespace Notifications.IntegrationTests.Outcomes;

/// <summary>
/// The order of one notification's events at its endpoint (docs/outcome-events.md): a bounce and a complaint written while the
/// endpoint is down, its breaker open and its delivered events parked, reach it after their delivered event, each once.
/// </summary>
[Collection("services")]
public sealed class OutcomeEventOrderTests
{
    private const int Emails = 3;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task EndpointDownThenBack_DeliveredBouncedComplainedPerNotification_AllArriveOnceInOrder()
    {
        // The product's attempts would outlast the test's patience only if the endpoint stayed down: here the breaker parks them.
        var retryDelays = Enumerable.Repeat(TimeSpan.FromSeconds(1), 6).ToArray();
        await using var scene = await WebhookScene.StartAsync(retryDelays: retryDelays);
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.Delivered, OutcomeEventTypes.Bounced, OutcomeEventTypes.Complained);
        await scene.Receiver.StopAsync();
        var ids = await scene.Db.InsertAsync(Emails);

        await using var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink,
            ("Relay:MinimumThroughput", "2"), ("Relay:BreakDuration", "00:00:02"));
        await using var producer = await WorkerHost.StartProducerAsync(scene.Broker);
        await Eventually.WaitAsync(() => OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Delivered), n => n == Emails, Patience, "delivered events made");

        // The bounce receiver's part: later events of the same notifications, while their delivered events cannot be sent.
        var now = DateTimeOffset.UtcNow;
        await OutcomeEventScene.WriteAsync(ids.SelectMany(id => new[]
        {
            new OutcomeEvent(id, OutcomeEventTypes.Bounced, "email", $"user{id}@example.com", now, """{"status":"5.1.1"}"""),
            new OutcomeEvent(id, OutcomeEventTypes.Complained, "email", $"user{id}@example.com", now.AddSeconds(1)),
        }).ToList());
        await consumer.WaitForLogAsync(4307, Patience);   // the endpoint's breaker opened
        await Eventually.WaitAsync(() => scene.Db.CountAsync("outbox"), n => n == 0, Patience, "every event published");

        await scene.Receiver.RestartAsync();
        await Eventually.WaitAsync(() => Task.FromResult(OutcomeEventScene.Accepted(scene).Count), n => n >= 3 * Emails, Patience, "every event accepted");
        await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == 4 * Emails, Patience, "emails and events logged 'sent'");

        var events = OutcomeEventScene.Accepted(scene);
        Assert.Equal(3 * Emails, events.Count);
        Assert.Equal(events.Count, events.Select(e => e.EventId).Distinct().Count());
        foreach (long id in ids)
        {
            Assert.Equal([OutcomeEventTypes.Delivered, OutcomeEventTypes.Bounced, OutcomeEventTypes.Complained],
                events.Where(e => e.NotificationId == id).Select(e => e.Type));
        }

        Assert.Equal(0, await scene.Db.CountAsync("dead_letter"));
        // Written again (a redelivered bounce), an event is not made twice.
        await OutcomeEventScene.WriteAsync([new OutcomeEvent(ids[0], OutcomeEventTypes.Bounced, "email", null, now)]);
        Assert.Equal(Emails, await OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Bounced));
        Assert.Equal(0, await scene.Db.CountAsync("outbox"));
    }

    [Fact]
    public async Task DeliveredEventsFailing_LaterEventsWritten_NoRequestOfThemBeforeTheirDeliveredIsAccepted()
    {
        // The endpoint answers 500 to every request while the bounces are written: the delivered events are retried, and
        // the bounces must wait (its breaker kept closed, so nothing but the order's wait holds them).
        var retryDelays = Enumerable.Repeat(TimeSpan.FromMilliseconds(500), 20).ToArray();
        await using var scene = await WebhookScene.StartAsync(retryDelays: retryDelays);
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.Delivered, OutcomeEventTypes.Bounced);
        scene.Receiver.Script.Always(ScriptedAnswer.With(System.Net.HttpStatusCode.InternalServerError));
        var ids = await scene.Db.InsertAsync(Emails);

        await using var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Relay:MinimumThroughput", "100000"));
        await using var producer = await WorkerHost.StartProducerAsync(scene.Broker);
        await Eventually.WaitAsync(() => OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Delivered), n => n == Emails, Patience, "delivered events made");
        await OutcomeEventScene.WriteAsync(ids.Select(id => new OutcomeEvent(id, OutcomeEventTypes.Bounced, "email", null, DateTimeOffset.UtcNow)).ToList());
        // Until a bounce found its delivered event unsettled (or, were the order not kept, was sent).
        await Eventually.WaitAsync(() => Task.FromResult(consumer.Services.GetFakeLogCollector().GetSnapshot().Any(r => r.Id.Id == 4602)
            || scene.Receiver.Deliveries.Any(d => OutcomeEventScene.Read(d).Type == OutcomeEventTypes.Bounced)), held => held, Patience, "a bounce held or sent");
        scene.Receiver.Script.Reset();
        await Eventually.WaitAsync(() => Task.FromResult(OutcomeEventScene.Accepted(scene).Count), n => n >= 2 * Emails, Patience, "every event accepted");

        var requests = scene.Receiver.Deliveries.ToList();
        foreach (long id in ids)
        {
            var delivered = OutcomeEventScene.Accepted(scene).Single(e => e.NotificationId == id && e.Type == OutcomeEventTypes.Delivered);
            int acceptedAt = requests.FindIndex(d => d.Id == delivered.EventId && d.AnsweredStatus == 200);
            int firstBounce = requests.FindIndex(d => OutcomeEventScene.Read(d) is { Type: OutcomeEventTypes.Bounced } e && e.NotificationId == id);
            Assert.True(firstBounce > acceptedAt, $"notification {id}: its bounce was sent (request {firstBounce}) before its delivery was accepted (request {acceptedAt})");
        }
    }
}
