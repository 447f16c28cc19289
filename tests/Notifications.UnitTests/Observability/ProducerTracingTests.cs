using System.Diagnostics;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Producer;
using Notifications.Shared.Data;
using OpenTelemetry;
using OpenTelemetry.Trace;

namespace Notifications.UnitTests.Observability;

/// <summary>The producer's spans: a stored traceparent is the notification's parent; a bad one is ignored; no listener, no span.</summary>
[Collection("tracing")]
public sealed class ProducerTracingTests
{
    private readonly ProducerTracing _tracing = new(NullLogger<ProducerTracing>.Instance);

    [Fact]
    public void StartPublish_ValidTraceParent_ContinuesThatTraceLinkedToTheBatch()
    {
        using var provider = Sdk.CreateTracerProviderBuilder().AddSource(ProducerTracing.SourceName).Build();
        var request = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.Recorded);
        using var batch = ProducerTracing.StartBatch(DateTimeOffset.UtcNow, 1);

        using var publish = _tracing.StartPublish(Row($"00-{request.TraceId}-{request.SpanId}-01"), batch);

        Assert.NotNull(publish);
        Assert.Equal(request.TraceId, publish.TraceId);
        Assert.Equal(request.SpanId, publish.ParentSpanId);
        Assert.Contains(publish.Links, l => l.Context.SpanId == batch!.SpanId);
    }

    [Theory]
    [InlineData("not-a-traceparent")]
    [InlineData("00-00000000000000000000000000000000-0000000000000000-01")]
    [InlineData("")]
    public void StartPublish_InvalidTraceParent_ChildOfTheBatch(string traceParent)
    {
        using var provider = Sdk.CreateTracerProviderBuilder().AddSource(ProducerTracing.SourceName).Build();
        using var batch = ProducerTracing.StartBatch(DateTimeOffset.UtcNow, 2);

        using var publish = _tracing.StartPublish(Row(traceParent), batch);

        Assert.NotNull(publish);
        Assert.Equal(batch!.TraceId, publish.TraceId);
        Assert.Equal(batch.SpanId, publish.ParentSpanId);
    }

    [Fact]
    public void StartPublish_TraceParentNotSampled_NoSpan()
    {
        using var provider = Sdk.CreateTracerProviderBuilder().AddSource(ProducerTracing.SourceName).Build();

        using var publish = _tracing.StartPublish(Row($"00-{ActivityTraceId.CreateRandom()}-{ActivitySpanId.CreateRandom()}-00"), batch: null);

        Assert.False(publish is { Recorded: true });
    }

    [Fact]
    public void StartBatchAndPublish_NoListener_CreateNothing()
    {
        using var batch = ProducerTracing.StartBatch(DateTimeOffset.UtcNow, 1);
        using var publish = _tracing.StartPublish(Row($"00-{ActivityTraceId.CreateRandom()}-{ActivitySpanId.CreateRandom()}-01"), batch);

        Assert.Null(batch);
        Assert.Null(publish);
    }

    private static OutboxRow Row(string? traceParent) => new() { Id = 42, Recipient = "a@example.com", TraceParent = traceParent };
}
