using System.Diagnostics;
using System.Net;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// FCM answers 429 with Retry-After: 60 (issue 27, defect 13, the push side): its notifications are parked until the pause
/// ends, not waited out in the handlers, so APNs goes on being delivered at once by a consumer with few handlers.
/// </summary>
[Collection("services")]
public sealed class ProviderPauseTests(ITestOutputHelper output)
{
    private const int Handlers = 4;
    private static readonly TimeSpan Pause = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan Promptly = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Fcm429RetryAfter60_FcmNotificationsParked_ApnsDeliveredPromptly()
    {
        await using var world = await PushWorld.StartAsync();
        world.Server.FcmScript.Always(ScriptedAnswer.With(HttpStatusCode.TooManyRequests, Pause));
        // FCM's rows first: every handler meets them before APNs'.
        var fcm = new List<(long Id, string Marker)>();
        for (int i = 0; i < 40; i++)
        {
            fcm.Add(await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken())));
        }

        var apns = new List<(long Id, string Marker)>();
        for (int i = 0; i < 10; i++)
        {
            apns.Add(await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken())));
        }

        await using (await world.StartConsumerAsync(more: ("Consumer:Handlers", Handlers.ToString(System.Globalization.CultureInfo.InvariantCulture))))
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => Task.FromResult(FcmRequests(world)), n => n > 0, Promptly, "FCM's first request");
            var paused = Stopwatch.StartNew();
            await Eventually.WaitAsync(() => Task.FromResult(apns.Count(a => world.Server.Log.AcceptedCountFor(a.Marker) > 0)), n => n == apns.Count,
                Promptly, "APNs' notifications delivered while FCM is paused");
            output.WriteLine($"APNs' {apns.Count} delivered {paused.Elapsed.TotalSeconds:F1} s into FCM's {Pause.TotalSeconds:F0} s pause; {FcmRequests(world)} requests to FCM");
        }

        // Only what was under way when the 429 came (a send a handler): nothing else is sent to a paused provider.
        Assert.InRange(FcmRequests(world), 1, Handlers);
        Assert.All(apns, a => Assert.Equal(1, world.Server.Log.AcceptedCountFor(a.Marker)));
        foreach (var (id, _) in fcm)
        {
            Assert.Null(await PushWorld.DeadLetterReasonAsync(id));
        }
    }

    private static int FcmRequests(PushWorld world) => world.Server.Log.Requests.Count(r => r.Provider == "fcm");
}
