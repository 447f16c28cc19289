using System.Diagnostics;
using Dapper;
using Notifications.Client;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// One notification enqueued with the traceparent of a business request, delivered by the real workers over
/// the real broker to the SMTP sink: the producer's publish span, the consumer's processing span and its SMTP
/// send land in that trace, each the child of the one before, and nothing else does (three spans a notification).
/// </summary>
[Collection("services")]
public sealed class TracingTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Trace_StoredTraceParent_PublishProcessAndSmtpSendAreOneParentLinkedTrace()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        using var spans = new SpanRecorder();
        var request = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.Recorded);
        long traced = await EnqueueAsync(new NewNotification("traced@example.com", "Traced", "hello") { TraceParent = TraceParent(request) });
        long invalid = await InsertWithTraceParentAsync("not-a-traceparent");

        var trace = await DeliverAsync(broker, sink, spans, request.TraceId, messages: 2);
        var publish = Single(trace, ProducerTracing.SourceName, "publish notification");
        var process = Single(trace, ConsumerTracing.SourceName, "process notification");
        var send = Single(trace, ConsumerTracing.SourceName, "smtp send");
        Assert.Equal(request.SpanId, publish.ParentSpanId);
        Assert.Equal(ActivityKind.Producer, publish.Kind);
        // The context crossed the broker in the message's own traceparent header, not through RabbitMQ.Client's spans.
        Assert.Equal(publish.SpanId, process.ParentSpanId);
        Assert.Equal(ActivityKind.Consumer, process.Kind);
        Assert.Equal(process.SpanId, send.ParentSpanId);
        Assert.Equal(3, trace.Count);
        Assert.Equal(traced, send.GetTagItem("notifications.id"));
        // The delivery log's statements are group commits for many deliveries: traces of their own, linked
        // to the processing span, with the database's span under them.
        var commits = spans.All().Where(s => s.Source.Name == ConsumerTracing.SourceName && s.Links.Any(l => l.Context.SpanId == process.SpanId)).ToList();
        Assert.Contains(commits, c => c.DisplayName == "delivery log record sent");
        Assert.Contains(spans.All(), s => s.Source.Name == "Npgsql" && commits.Any(c => c.SpanId == s.ParentSpanId));
        // The batch is a trace of its own, linked from the notification's span.
        Assert.Contains(spans.All(), s => s.DisplayName == "publish batch" && publish.Links.Any(l => l.Context.SpanId == s.SpanId));
        // The row with a malformed traceparent was delivered all the same, traced under its batch.
        Assert.Equal(1, sink.CountByNotificationId().GetValueOrDefault(invalid));
        var invalidPublish = Assert.Single(spans.All(), s => s.DisplayName == "publish notification" && Equals(s.GetTagItem("notifications.id"), invalid));
        Assert.Contains(spans.All(), s => s.DisplayName == "publish batch" && s.SpanId == invalidPublish.ParentSpanId);
    }

    // Envelopes off: the context crosses in the message's own traceparent header, not in an envelope's table of its items'.
    [Fact]
    public async Task Trace_EnvelopesOff_ProcessIsTheChildOfPublishThroughTheMessageHeader()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        using var spans = new SpanRecorder();
        var request = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.Recorded);
        await EnqueueAsync(new NewNotification("traced@example.com", "Traced", "hello") { TraceParent = TraceParent(request) });

        var trace = await DeliverAsync(broker, sink, spans, request.TraceId, messages: 1, ("Producer:EnvelopeSize", "1"));
        var publish = Single(trace, ProducerTracing.SourceName, "publish notification");
        var process = Single(trace, ConsumerTracing.SourceName, "process notification");
        var send = Single(trace, ConsumerTracing.SourceName, "smtp send");
        Assert.Equal(request.SpanId, publish.ParentSpanId);
        Assert.Equal(publish.SpanId, process.ParentSpanId);
        Assert.Equal(process.SpanId, send.ParentSpanId);
    }

    // Runs the two workers until the sink has the messages and the processing span of the trace has ended; its spans.
    private static async Task<IReadOnlyList<Activity>> DeliverAsync(TestBroker broker, SmtpSink sink, SpanRecorder spans, ActivityTraceId traceId,
        int messages, params (string Key, string? Value)[] producerSettings)
    {
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker, producerSettings))
        {
            await sink.WaitForMessagesAsync(messages, Patience);
            await Eventually.WaitAsync(() => Task.FromResult(spans.Trace(traceId)),
                t => t.Any(s => s.DisplayName == "process notification"), Patience, "the processing span ended");
        }

        return spans.Trace(traceId);
    }

    private static Activity Single(IReadOnlyList<Activity> trace, string source, string? name)
    {
        var found = trace.Where(s => s.Source.Name == source && (name is null || s.DisplayName == name)).ToList();
        Assert.True(found.Count == 1, $"expected one span of {source} {name} in the trace, found {found.Count}; the trace: " +
            string.Join(", ", trace.Select(s => $"{s.Source.Name}/{s.DisplayName} {s.SpanId}<-{s.ParentSpanId}")));
        return found[0];
    }

    private static string TraceParent(ActivityContext context) => $"00-{context.TraceId}-{context.SpanId}-01";

    private static async Task<long> EnqueueAsync(NewNotification notification)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        long id = await NotificationOutbox.EnqueueAsync(transaction, notification);
        await transaction.CommitAsync();
        return id;
    }

    private static async Task<long> InsertWithTraceParentAsync(string traceParent)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, traceparent) VALUES ('bad-trace@example.com', 'Untraced', 'hello', @traceParent) RETURNING id",
            new { traceParent });
    }
}
