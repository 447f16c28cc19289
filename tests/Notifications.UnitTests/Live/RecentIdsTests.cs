using Notifications.Client.Live;

namespace Notifications.UnitTests.Live;

/// <summary>The client's memory of recent ids: a second copy is held or acked, never new; bounded, the oldest forgotten first.</summary>
public sealed class RecentIdsTests
{
    [Fact]
    public void Receive_SecondCopy_HeldUntilAckedThenAcked()
    {
        var recent = new RecentIds(10);

        Assert.Equal(RecentIds.Copy.New, recent.Receive("101"));
        Assert.Equal(RecentIds.Copy.Held, recent.Receive("101"));
        recent.Ack("101");
        Assert.Equal(RecentIds.Copy.Acked, recent.Receive("101"));
    }

    [Fact]
    public void Ack_OfAnIdNotReceived_ItsLiveCopyIsAcked()
    {
        var recent = new RecentIds(10);

        recent.Ack("202");   // the app showed the push copy

        Assert.Equal(RecentIds.Copy.Acked, recent.Receive("202"));
    }

    [Fact]
    public void Receive_OverCapacity_TheOldestForgotten()
    {
        var recent = new RecentIds(3);
        foreach (string id in new[] { "1", "2", "3", "4" })
        {
            recent.Receive(id);
        }

        Assert.Equal(3, recent.Count);
        Assert.Equal(RecentIds.Copy.Held, recent.Receive("2"));
        Assert.Equal(RecentIds.Copy.New, recent.Receive("1"));
    }

    [Fact]
    public void Forget_AnIdNeverHandedOver_NextCopyIsNew()
    {
        var recent = new RecentIds(3);
        recent.Receive("7");

        recent.Forget("7");

        Assert.Equal((RecentIds.Copy.New, 1), (recent.Receive("7"), recent.Count));
    }
}
