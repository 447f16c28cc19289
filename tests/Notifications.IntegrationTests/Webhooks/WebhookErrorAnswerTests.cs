using System.Net;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Status;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// An error answer to a webhook the receiver read in full: a proxy's 502 or 504 can come after the application behind it
/// acted on the request, so at most once it is "maybe delivered" (never sent again, the mark stays), while at least once
/// retries it (the receiver dedupes on webhook-id). Counted at the receiver.
/// </summary>
[Collection("services")]
public sealed class WebhookErrorAnswerTests
{
    private const string Endpoint = "partner-a";
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    // Issue 27 (3): a 5xx or 408 counted as "not sent", so at most once released the mark and sent the webhook again.
    [Theory]
    [InlineData(HttpStatusCode.BadGateway)]
    [InlineData(HttpStatusCode.GatewayTimeout)]
    [InlineData(HttpStatusCode.InternalServerError)]
    [InlineData(HttpStatusCode.RequestTimeout)]
    public async Task ErrorAnswerAfterTheBodyWasRead_AtMostOnce_ReceivedOnceNeverAgain(HttpStatusCode status)
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Next(1, ScriptedAnswer.With(status));
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", "AtMostOnce")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            // Settled as unknown and its reason recorded, or (the defect) sent a second time: whichever comes first ends the wait.
            // The handler counts the unknown outcome before it records the reason: on a busy machine the consumer was stopped
            // between the two (the record cancelled, the status 'in_flight') when the wait ended on the count alone.
            var stats = consumer.Get<ConsumerStats>();
            await Eventually.WaitAsync(async () => (stats.Unknown, (await StatusProbe.GetAsync(id)).State, scene.Receiver.CountFor(WebhookScene.Key(id))),
                s => (s.Unknown == 1 && s.State == "maybe_sent") || s.Item3 > 1, Patience, "the outcome settled and recorded");

            // Nothing left anywhere that could bring it back: no copy in any queue, the outbox empty, the mark in place.
            Assert.Equal(1, scene.Receiver.CountFor(WebhookScene.Key(id)));
            Assert.Empty(await scene.Broker.NonEmptyQueuesAsync());
            // The producer deletes the claimed row when its publish is confirmed: the consumer can settle the copy first.
            await Eventually.WaitAsync(() => scene.Db.CountAsync("outbox"), n => n == 0, Patience, "the outbox emptied");
            Assert.Equal(1, await scene.Db.CountLogAsync("sending"));
        }

        Assert.Equal([(int)status], scene.Receiver.Deliveries.Select(d => d.AnsweredStatus ?? 0));
        Assert.Empty(await scene.DeadLetterReasonsAsync(id));
        var recorded = await StatusProbe.GetAsync(id);
        Assert.Equal(("maybe_sent", 1), (recorded.State, recorded.Attempts));
        Assert.Contains($"answered {(int)status}", recorded.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BadGatewayAfterTheBodyWasRead_AtLeastOnce_RetriedAndDeliveredWithTheSameBody()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Next(1, ScriptedAnswer.With(HttpStatusCode.BadGateway));
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", "AtLeastOnce")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == 1, Patience, "delivery log 'sent'");
        }

        var attempts = scene.Receiver.Deliveries.Where(d => d.Id == WebhookScene.Key(id)).ToList();
        Assert.Equal([502, 200], attempts.Select(d => d.AnsweredStatus ?? 0));
        Assert.Single(attempts.Select(d => System.Text.Encoding.UTF8.GetString(d.Body)).Distinct());
        Assert.Single(scene.Accepted(id));
    }

    // A refusal that says the request was not acted on (a "slow down") stays "not sent" at most once: retried, delivered once.
    [Fact]
    public async Task ServiceUnavailableWithRetryAfter_AtMostOnce_RetriedAndDeliveredOnce()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Next(1, ScriptedAnswer.With(HttpStatusCode.ServiceUnavailable, TimeSpan.FromSeconds(1)));
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", "AtMostOnce")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == 1, Patience, "delivery log 'sent'");
        }

        Assert.Equal([503, 200], scene.Receiver.Deliveries.Select(d => d.AnsweredStatus ?? 0));
    }
}
