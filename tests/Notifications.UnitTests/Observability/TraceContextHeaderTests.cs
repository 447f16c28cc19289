using System.Diagnostics;
using System.Text;
using Notifications.Shared.Messaging;

namespace Notifications.UnitTests.Observability;

/// <summary>The trace context in a message's headers: what the producer writes, the consumer reads back as the broker delivers it (bytes).</summary>
public sealed class TraceContextHeaderTests
{
    [Theory]
    [InlineData(ActivityTraceFlags.Recorded, null)]
    [InlineData(ActivityTraceFlags.None, "vendor=value")]
    public void InjectThenExtract_AsDelivered_SameContextAndSamplingDecision(ActivityTraceFlags flags, string? state)
    {
        var parent = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), flags, state);
        using var activity = new Activity("publish notification").SetParentId(parent.TraceId, parent.SpanId, flags);
        activity.TraceStateString = state;
        activity.Start();
        var headers = new Dictionary<string, object?>();

        TraceContextHeader.Inject(activity, headers);
        var delivered = headers.ToDictionary(h => h.Key, h => (object?)Encoding.UTF8.GetBytes((string)h.Value!));
        var context = TraceContextHeader.Extract(delivered);

        Assert.Equal(activity.TraceId, context.TraceId);
        Assert.Equal(activity.SpanId, context.SpanId);
        Assert.Equal(flags, context.TraceFlags);
        Assert.Equal(state, context.TraceState);
        Assert.True(context.IsRemote);
        Assert.Equal(state is null ? 1 : 2, headers.Count);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("not-a-traceparent")]
    [InlineData(42)]
    public void Extract_MissingOrMalformed_NoContext(object? value)
    {
        var headers = new Dictionary<string, object?> { ["x-attempt"] = 2 };
        if (value is not null)
        {
            headers[TraceContextHeader.TraceParent] = value is string text ? Encoding.UTF8.GetBytes(text) : value;
        }

        Assert.Equal(default, TraceContextHeader.Extract(headers));
        Assert.Equal(default, TraceContextHeader.Extract(null));
    }
}
