using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// A bulk topic does not starve urgent rows (issue 29, item 4; docs/fan-out.md, "Pacing"): the fan-out's deliveries travel
/// in the parent's lane, and an urgent row enqueued while a topic of 20,000 is being delivered is sent long before the
/// topic ends, on the real services, counted at smtp-sink.
/// </summary>
[Collection("services")]
public sealed class FanOutLaneTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task BulkTopicBeingDelivered_UrgentRowEnqueued_SentBeforeTheTopicEnds()
    {
        const int subscribers = 20_000;
        await TestDatabase.CleanAsync();
        await FanOutProbe.SeedTopicAsync(subscribers);
        await TestDatabase.EnqueueAsync(NewNotification.ToTopic("everyone", "Sale", "Half price today.", AudienceChannels.Email)
            with { Priority = NotificationPriority.Bulk });

        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("FanOut:PageSize", "500"));
        await sink.WaitForMessagesAsync(subscribers / 20, Patience);

        long urgent = await TestDatabase.EnqueueAsync(new NewNotification("on-call@example.com", "Site down", "Now.") { Priority = NotificationPriority.Urgent });
        await StatusProbe.WaitForAsync(urgent, "sent", Patience);
        int deliveredMeanwhile = sink.MessageCount() - 1;
        output.WriteLine(FormattableString.Invariant($"the urgent row was sent when {deliveredMeanwhile} of the topic's {subscribers} had arrived"));
        Assert.InRange(deliveredMeanwhile, subscribers / 20, subscribers * 3 / 4);
        await sink.WaitForMessagesAsync(subscribers + 1, Patience);
    }
}
