using System.Diagnostics;
using System.Text;
using Notifications.Consumer.Telemetry;
using Notifications.Producer;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Messaging;
using OpenTelemetry;
using OpenTelemetry.Trace;

namespace Notifications.UnitTests.Observability;

/// <summary>An envelope's items' trace contexts: the producer's table of traceparents, read back per item by the consumer as delivered (bytes).</summary>
[Collection("tracing")]
public sealed class EnvelopeTraceContextTests
{
    [Fact]
    public void ItemContext_TracedItemsOfAnEnvelope_EachContinuesItsOwnPublishSpan()
    {
        using var provider = Sdk.CreateTracerProviderBuilder().AddSource(ConsumerTracing.SourceName).Build();
        using var first = new Activity("publish notification").Start();
        using var third = new Activity("publish notification").Start();
        var builder = new EnvelopeBuilder(size: 50, maxBytes: 1 << 20);
        builder.Add("work", Row(1), [1], first);
        builder.Add("work", Row(2), [2], span: null);
        builder.Add("work", Row(3), [3], third);

        var (_, _, properties, spans) = builder.Take();
        var table = Assert.IsType<Dictionary<string, object?>>(properties.Headers![EnvelopeSerializer.ItemTraceParents]);
        var delivered = new Dictionary<string, object?>
        {
            [EnvelopeSerializer.ItemTraceParents] = table.ToDictionary(e => e.Key, e => (object?)Encoding.ASCII.GetBytes((string)e.Value!)),
        };
        var traceParents = ConsumerTracing.ItemTraceParents(delivered);
        var (firstHeaders, firstContext) = ConsumerTracing.ItemContext(traceParents, 1);
        var (untracedHeaders, untracedContext) = ConsumerTracing.ItemContext(traceParents, 2);
        var (_, thirdContext) = ConsumerTracing.ItemContext(traceParents, 3);

        Assert.Equal(2, spans.Length);
        Assert.Equal(first.Id, table["1"]);
        Assert.Equal((first.TraceId, first.SpanId, true), (firstContext.TraceId, firstContext.SpanId, firstContext.IsRemote));
        Assert.Equal((third.TraceId, third.SpanId), (thirdContext.TraceId, thirdContext.SpanId));
        Assert.NotNull(firstHeaders);
        Assert.True(firstHeaders.ContainsKey(TraceContextHeader.TraceParent));
        Assert.Null(untracedHeaders);
        Assert.Equal(default, untracedContext);
    }

    private static OutboxRow Row(long id) => new() { Id = id, Recipient = $"u{id}@example.com", Subject = "s", Body = "b", CreatedAt = DateTimeOffset.UnixEpoch };
}
