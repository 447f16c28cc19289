using System.Diagnostics;
using System.Net;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// One host answers 429 with Retry-After: 60 (issue 27, defect 13). Its notifications are parked in a delay queue until the
/// pause ends, unspent, instead of being waited out in the handlers: an endpoint on another host goes on being delivered at
/// once by a consumer with few handlers, and nothing more goes to the paused host meanwhile.
/// </summary>
[Collection("services")]
public sealed class RetryAfterPauseTests(ITestOutputHelper output)
{
    private const int Handlers = 4;
    private static readonly TimeSpan Pause = TimeSpan.FromSeconds(60);

    // Well inside the pause: a handler that waited it out would hold the other host's notifications at least this long.
    private static readonly TimeSpan Promptly = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task OneHostAnswers429RetryAfter60_ItsNotificationsParked_AnotherHostDeliveredPromptly()
    {
        await using var scene = await WebhookScene.StartAsync();
        await using var other = await WebhookReceiver.StartAsync([scene.Secret], plainHttp: true);
        // One machine, two hosts as the consumer keys its pauses: "localhost" and "127.0.0.1".
        await scene.AddEndpointAsync("busy", new UriBuilder(scene.Receiver.PlainUrl!) { Host = "localhost" }.Uri, allowPrivate: true);
        await scene.AddEndpointAsync("healthy", other.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Always(ScriptedAnswer.With(HttpStatusCode.TooManyRequests, Pause));
        // The paused host's rows first: every handler meets them before the other host's.
        var busy = await scene.InsertAsync("busy", 100);
        var healthy = await scene.InsertAsync("healthy", 20);

        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:Handlers", Handlers.ToString(System.Globalization.CultureInfo.InvariantCulture))))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(scene.Receiver.Deliveries.Count), n => n > 0, Promptly, "the busy host's first request");
            var paused = Stopwatch.StartNew();
            await Eventually.WaitAsync(() => Task.FromResult(healthy.Count(id => other.CountFor(WebhookScene.Key(id)) > 0)), n => n == healthy.Count,
                Promptly, "the other host's notifications delivered while the busy host is paused");
            output.WriteLine($"the other host's {healthy.Count} delivered {paused.Elapsed.TotalSeconds:F1} s into the busy host's {Pause.TotalSeconds:F0} s pause; "
                + $"{scene.Receiver.Deliveries.Count} requests to the busy host");
        }

        // Only what was under way when the 429 came (a send a handler): nothing else is sent to a paused host.
        Assert.InRange(scene.Receiver.Deliveries.Count, 1, Handlers);
        Assert.All(healthy, id => Assert.Equal(1, other.CountFor(WebhookScene.Key(id))));
        Assert.Equal(0, await scene.Db.CountAsync("dead_letter"));
        Assert.Equal(healthy.Count, await scene.Db.CountLogAsync("sent"));
        Assert.DoesNotContain(busy, id => scene.Accepted(id).Count > 0);
    }
}
