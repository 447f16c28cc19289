using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// Scheduled sends on the real services: a row with a not_before stays in the outbox until that instant and is sent after
/// it (the order, judged by when the SMTP server received it), soon after it (well within a generous bound, where a lane
/// polled only by a long safety net would fail); a row scheduled for tomorrow is not touched.
/// </summary>
[Collection("services")]
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
public sealed class ScheduledSendTests
{
    private static readonly TimeSpan Lead = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    // The sink's file times lag by up to a scheduler tick; a send follows its claim by more than that (publish, confirm,
    // consume, the SMTP exchange), so an arrival this close to not_before is still after it.
    private static readonly TimeSpan FileClockTick = TimeSpan.FromMilliseconds(10);

    [Fact]
    public async Task NotBefore_ScheduledRows_SentAfterTheirInstantAndSoonAfter()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        long now = await TestDatabase.EnqueueAsync(new NewNotification("now@example.com", "Now", "now"));
        await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(1));

        var notBefore = DateTimeOffset.UtcNow + Lead;
        var scheduled = new List<long>();
        foreach (var priority in new[] { NotificationPriority.Urgent, NotificationPriority.Normal, NotificationPriority.Bulk })
        {
            for (int i = 0; i < 3; i++)
            {
                scheduled.Add(await TestDatabase.EnqueueAsync(
                    new NewNotification($"later{i}@example.com", "Scheduled", "body") { Priority = priority, NotBefore = notBefore }));
            }
        }

        long tomorrow = await TestDatabase.EnqueueAsync(
            new NewNotification("tomorrow@example.com", "Tomorrow", "body") { NotBefore = DateTimeOffset.UtcNow.AddDays(1) });

        await Eventually.WaitAsync(() => Task.FromResult(sink.ArrivedAt().Keys.Count(scheduled.Contains)), n => n == scheduled.Count,
            Lead + Patience, "every scheduled row received");
        var arrived = sink.ArrivedAt();

        Assert.All(scheduled, id => Assert.True(arrived[id] >= notBefore.UtcDateTime - FileClockTick,
            $"{id} received {(notBefore.UtcDateTime - arrived[id]).TotalMilliseconds:F0} ms before its not_before"));
        // Soon after: the lanes look every 250 ms (standard) and every second at most (urgent, listening or not).
        Assert.All(scheduled, id => Assert.True(arrived[id] <= notBefore.UtcDateTime + Patience,
            $"{id} received {(arrived[id] - notBefore.UtcDateTime).TotalSeconds:F1} s after its not_before"));
        Assert.Equal([tomorrow], await db.InOutboxAsync([tomorrow, now, .. scheduled]));
        Assert.Equal(1, sink.CountByNotificationId().GetValueOrDefault(now));
    }
}
