using System.Text;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// Webhook rows through the real producer and consumer to a receiver that verifies Standard Webhooks signatures as the
/// spec's receivers do, in both delivery modes; checked at the receiver (ids, signatures, bodies) and in the tables.
/// </summary>
[Collection("services")]
public sealed class WebhookDeliveryTests
{
    private const string Endpoint = "partner-a";
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Webhooks_TwoHundredRows_EachVerifiedAtReceiverWithBodyAsWritten(string mode)
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        var ids = await scene.InsertAsync(Endpoint, 200);
        var rows = await scene.RowsAsync(ids);

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(ids.Count(id => scene.Accepted(id).Count > 0)), n => n == ids.Count, Patience, "ids accepted by the receiver");
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
        }

        foreach (long id in ids)
        {
            int received = scene.Receiver.CountFor(WebhookScene.Key(id));
            Assert.True(mode == "AtLeastOnce" ? received >= 1 : received == 1, $"{id} received {received} times in {mode}");
            AssertBody(scene.Accepted(id)[0], "invoice.paid", rows[id].Data, rows[id].CreatedAt);
        }

        Assert.All(scene.Receiver.Deliveries, d => Assert.True(d.Verdict.Verified, d.Verdict.Reason));
        Assert.Equal(0, await scene.Db.CountAsync("dead_letter"));
        Assert.Equal(0u, await scene.Broker.CountAsync(scene.Broker.Options.Queue));
    }

    // At least once only: at most once, a 500 to a request the receiver read is maybe delivered, not sent again
    // (WebhookErrorAnswerTests).
    [Fact]
    public async Task ServerError500_TwoAttempts_RetriedAndDeliveredWithTheSameBody()
    {
        const string mode = "AtLeastOnce";
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Next(2, ScriptedAnswer.With(System.Net.HttpStatusCode.InternalServerError));
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(scene.Accepted(id).Count), n => n == 1, Patience, "accepted after two 500s");
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == 1, Patience, "delivery log 'sent'");
        }

        var attempts = scene.Receiver.Deliveries.Where(d => d.Id == WebhookScene.Key(id)).ToList();
        Assert.Equal([500, 500, 200], attempts.Select(d => d.AnsweredStatus ?? 0));
        Assert.Single(attempts.Select(d => Encoding.UTF8.GetString(d.Body)).Distinct());
        Assert.Empty(await scene.DeadLetterReasonsAsync(id));
    }

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task TooManyRequests429WithRetryAfter_NotDeadLettered_DeliveredAfterThePause(string mode)
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        var pause = TimeSpan.FromSeconds(3);
        scene.Receiver.Script.Next(1, ScriptedAnswer.With(System.Net.HttpStatusCode.TooManyRequests, pause));
        long id = (await scene.InsertAsync(Endpoint, 1))[0];

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(scene.Accepted(id).Count), n => n == 1, Patience, "accepted after the 429");
            await Eventually.WaitAsync(() => scene.Db.CountLogAsync("sent"), n => n == 1, Patience, "delivery log 'sent'");
        }

        var attempts = scene.Receiver.Deliveries.Where(d => d.Id == WebhookScene.Key(id)).ToList();
        Assert.Equal([429, 200], attempts.Select(d => d.AnsweredStatus ?? 0));
        // The retry queue's delay (200 ms in the tests) is shorter: the sender waited for the host's Retry-After.
        Assert.True(attempts[1].ArrivedAt - attempts[0].ArrivedAt >= pause - TimeSpan.FromMilliseconds(1100),
            $"second attempt {(attempts[1].ArrivedAt - attempts[0].ArrivedAt).TotalMilliseconds} ms after the 429");
        Assert.Empty(await scene.DeadLetterReasonsAsync(id));
    }

    internal static void AssertBody(WebhookDelivery delivery, string type, string data, DateTime createdAt)
    {
        using var body = JsonDocument.Parse(delivery.Body);
        var root = body.RootElement;
        Assert.Equal(type, root.GetProperty("type").GetString());
        Assert.Equal(data, root.GetProperty("data").GetRawText());
        var timestamp = root.GetProperty("timestamp").GetDateTimeOffset();
        Assert.True((timestamp - new DateTimeOffset(DateTime.SpecifyKind(createdAt, DateTimeKind.Utc))).Duration() < TimeSpan.FromMilliseconds(1),
            $"timestamp {timestamp:O} is not the row's created_at {createdAt:O}");
        Assert.Equal(["data", "timestamp", "type"], root.EnumerateObject().Select(p => p.Name).Order());
        Assert.Equal("application/json; charset=utf-8", delivery.Headers["content-type"]);
    }
}
