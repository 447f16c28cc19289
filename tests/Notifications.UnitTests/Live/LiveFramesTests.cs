using System.Text;
using Notifications.Client.Live;

namespace Notifications.UnitTests.Live;

/// <summary>The client reads the gateway's notification frames as docs/live.md writes them and writes acks the gateway reads.</summary>
public sealed class LiveFramesTests
{
    [Fact]
    public void Notification_TheGatewaysFrame_IdAsStringAndData()
    {
        var frame = """{"type":"notification","id":"4611686018427388012","subject":"Hi","body":"there","data":{"order":"42"}}"""u8;

        var notification = LiveFrames.Notification(frame)!;

        Assert.Equal(("4611686018427388012", "Hi", "there"), (notification.Id, notification.Subject, notification.Body));
        Assert.Equal("42", notification.Data!.Value.GetProperty("order").GetString());
    }

    [Fact]
    public void Notification_NoSubjectBodyOrData_Nulls()
    {
        var notification = LiveFrames.Notification("""{"type":"notification","id":"7","subject":null,"body":null}"""u8)!;

        Assert.Equal(("7", (string?)null, (string?)null, false), (notification.Id, notification.Subject, notification.Body, notification.Data.HasValue));
    }

    [Fact]
    public void Notification_AnotherTypeOrANumericId_Skipped()
    {
        Assert.Null(LiveFrames.Notification("""{"type":"presence","id":"7"}"""u8));
        Assert.Null(LiveFrames.Notification("""{"type":"notification","id":7}"""u8));
        Assert.Null(LiveFrames.Notification("""{"type":"notification","id":"x7"}"""u8));
    }

    [Fact]
    public void Ack_TheGatewaysShape()
    {
        Assert.Equal("""{"type":"ack","id":"101"}""", Encoding.UTF8.GetString(LiveFrames.Ack("101")));
        Assert.True(LiveFrames.IsId("4611686018427388012"));
        Assert.False(LiveFrames.IsId("-1"));
        Assert.False(LiveFrames.IsId(""));
    }
}
