using System.Diagnostics;
using Notifications.Client;

namespace Notifications.UnitTests.Observability;

/// <summary>What <see cref="OutboxValues.Of"/> stores in the outbox's traceparent column.</summary>
[Collection("tracing")]
public sealed class OutboxTraceParentTests
{
    private static readonly NewNotification Notification = new("a@example.com", "Subject", "Body");

    [Fact]
    public void TraceParentOf_CurrentActivity_ItsW3CId()
    {
        using var request = new Activity("request").SetIdFormat(ActivityIdFormat.W3C).Start();

        Assert.Equal(request.Id, OutboxValues.TraceParentOf(Notification));
        Assert.Equal(55, request.Id!.Length);
    }

    [Fact]
    public void TraceParentOf_NoActivity_Null()
    {
        Assert.Null(Activity.Current);
        Assert.Null(OutboxValues.TraceParentOf(Notification));
    }

    [Fact]
    public void TraceParentOf_ExplicitValue_WinsOverTheCurrentActivity()
    {
        string explicitValue = $"00-{ActivityTraceId.CreateRandom()}-{ActivitySpanId.CreateRandom()}-01";
        using var request = new Activity("request").SetIdFormat(ActivityIdFormat.W3C).Start();

        Assert.Equal(explicitValue, OutboxValues.TraceParentOf(Notification with { TraceParent = explicitValue }));
    }

    [Theory]
    [InlineData("garbage")]
    [InlineData("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra")]
    public void TraceParentOf_ExplicitInvalid_Throws(string value)
    {
        Assert.Throws<ArgumentException>(() => OutboxValues.TraceParentOf(Notification with { TraceParent = value }));
    }
}
