using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// Scheduled sends on the real services: a row with a not_before stays in the outbox until that instant, is
/// claimed within a second after it and sent; a row scheduled for tomorrow is not touched.
/// </summary>
[Collection("services")]
public sealed class ScheduledSendTests
{
    private static readonly TimeSpan ClaimBound = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan Lead = TimeSpan.FromSeconds(3);

    [Fact]
    public async Task NotBefore_ScheduledRows_NotSentEarlyAndClaimedWithinASecondAfter()
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

        // Watch the outbox and the SMTP server every 20 ms until every scheduled row has been received.
        var leftOutbox = new Dictionary<long, DateTimeOffset>();
        var received = new Dictionary<long, DateTimeOffset>();
        var deadline = notBefore + TimeSpan.FromSeconds(30);
        while (received.Count < scheduled.Count && DateTimeOffset.UtcNow < deadline)
        {
            var inOutbox = (await db.InOutboxAsync(scheduled)).ToHashSet();
            var atSink = sink.CountByNotificationId();
            var seen = DateTimeOffset.UtcNow;
            foreach (long id in scheduled)
            {
                if (!inOutbox.Contains(id))
                {
                    leftOutbox.TryAdd(id, seen);
                }

                if (atSink.ContainsKey(id))
                {
                    received.TryAdd(id, seen);
                }
            }

            await Task.Delay(20);
        }

        Assert.Equal(scheduled.Count, received.Count);
        // The observation is taken after the probes, so "seen" can only be later than the event: an early
        // send would show as seen before not_before.
        Assert.All(received, r => Assert.True(r.Value >= notBefore, $"{r.Key} received {(notBefore - r.Value).TotalMilliseconds:F0} ms before its not_before"));
        Assert.All(leftOutbox, r => Assert.True(r.Value - notBefore <= ClaimBound,
            $"{r.Key} claimed {(r.Value - notBefore).TotalMilliseconds:F0} ms after its not_before (bound {ClaimBound.TotalMilliseconds} ms)"));
        Assert.Equal([tomorrow], await db.InOutboxAsync([tomorrow, now, .. scheduled]));
        Assert.Equal(1, sink.CountByNotificationId().GetValueOrDefault(now));
    }
}
