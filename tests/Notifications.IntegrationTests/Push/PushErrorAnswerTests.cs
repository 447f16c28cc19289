using System.Net;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// A provider's error answer to a request whose body it read: a 500 or a front end's 502/504 does not say the notification
/// was not taken, so at most once it is "maybe delivered": never sent again, its mark stays. At least once retries it
/// (<see cref="PushFailureTests.Push_500Twice_RetriedAndDeliveredOnce"/>). Counted at the push server.
/// </summary>
[Collection("services")]
public sealed class PushErrorAnswerTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    // Issue 27 (3), push: a 5xx counted as "not sent", so at most once released the mark and sent it again.
    [Theory]
    [InlineData("apns", HttpStatusCode.InternalServerError)]
    [InlineData("fcm", HttpStatusCode.BadGateway)]
    public async Task Push_ErrorAnswerAfterTheBody_AtMostOnceReceivedOnceNeverAgain(string provider, HttpStatusCode status)
    {
        await using var world = await PushWorld.StartAsync();
        (provider == "apns" ? world.Server.ApnsScript : world.Server.FcmScript).Next(1, ScriptedAnswer.With(status));
        string token = provider == "apns" ? PushWorld.NewApnsToken() : PushWorld.NewFcmToken();
        var (id, marker) = await world.InsertAsync(PushWorld.Recipient(provider, token));

        await using (var consumer = await world.StartConsumerAsync(more: [("Consumer:DeliveryMode", "AtMostOnce")]))
        await using (await world.StartProducerAsync())
        {
            // Settled as unknown, or (the defect) sent a second time: whichever comes first ends the wait.
            var stats = consumer.Get<ConsumerStats>();
            await Eventually.WaitAsync(() => Task.FromResult((stats.Unknown, world.RequestsFor(marker).Count)),
                s => s.Unknown == 1 || s.Count > 1, Patience, "the outcome settled");

            Assert.Single(world.RequestsFor(marker));
            Assert.Empty(await world.Broker.NonEmptyQueuesAsync());
            Assert.Equal(0, await world.Database.CountAsync("outbox"));
        }

        Assert.Equal([(int)status], world.RequestsFor(marker).Select(r => r.AnsweredStatus ?? 0));
        Assert.Equal("sending", await PushWorld.LogStatusAsync(id));
        Assert.Null(await PushWorld.DeadLetterReasonAsync(id));
    }
}
