using System.Text;
using Notifications.Harness.Live;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Harness;

/// <summary>
/// What the live mode's clients count: a frame's id and whether it is the topic broadcast's (told by its subject, as the consumer
/// writes the frame), and the broadcast counted by client, whatever ids its frames carry, apart from the steady flow's ids.
/// </summary>
public sealed class LiveArrivalsTests
{
    [Fact]
    public void Notification_TopicBroadcastFrame_ItsIdAndBroadcast() =>
        Assert.Equal((4611686018427387904L, true), LiveClientReader.Notification(LiveFrames.Notification(4611686018427387904, LiveBroadcast.Subject, "to all", null)));

    [Fact]
    public void Notification_FlowFrame_ItsIdNotBroadcast() =>
        Assert.Equal((42L, false), LiveClientReader.Notification(LiveFrames.Notification(42, "Your ride", "arrives in 2 min", """{"subject":"bench-live-broadcast"}""")));

    [Fact]
    public void Notification_NoSubject_ItsIdNotBroadcast() =>
        Assert.Equal((7L, false), LiveClientReader.Notification(LiveFrames.Notification(7, null, "body", null)));

    [Theory]
    [InlineData("not json")]
    [InlineData("""{"type":"notification","subject":"bench-live-broadcast"}""")]
    [InlineData("""{"type":"notification","id":"x1","subject":"bench-live-broadcast"}""")]
    public void Notification_NoNumericId_NoId(string frame) =>
        Assert.Null(LiveClientReader.Notification(Encoding.UTF8.GetBytes(frame)).Id);

    [Fact]
    public void RecordBroadcast_OneIdAtEveryClient_CountedByClientNotAsDuplicates()
    {
        var arrivals = new LiveArrivals();
        arrivals.Record(1, at: 10);
        arrivals.Record(1, at: 11);

        foreach (string subscriber in new[] { "bench-live-1", "bench-live-2", "bench-live-3", "bench-live-2" })
        {
            arrivals.RecordBroadcast(subscriber, at: 20);
        }

        Assert.Equal((1L, 1L, 3L, 1L), (arrivals.Received, arrivals.Duplicates, arrivals.BroadcastReceived, arrivals.BroadcastAgain));
    }

    [Fact]
    public void Merge_AnotherProcessesBroadcast_AddedByClient()
    {
        var arrivals = new LiveArrivals();
        arrivals.RecordBroadcast("bench-live-1", at: 20);

        arrivals.Merge([(5, 30)], duplicates: 2, [("bench-live-2", 21), ("bench-live-3", 22)], broadcastAgain: 1);

        Assert.Equal((1L, 2L, 3L, 1L), (arrivals.Received, arrivals.Duplicates, arrivals.BroadcastReceived, arrivals.BroadcastAgain));
        Assert.Equal(21, arrivals.Broadcast.Single(b => b.Key == "bench-live-2").Value);
    }
}
