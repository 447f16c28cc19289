using System.Diagnostics;
using System.Globalization;
using Notifications.Consumer.Pipeline;
using Notifications.Shared.Contract;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;

namespace Notifications.Consumer.Telemetry;

/// <summary>
/// The consumer's spans (source <c>Notifications.Consumer</c>): one per delivery handled (kind Consumer), a
/// child of the producer's publish span whose context the message carries (<see cref="TraceContextHeader"/>),
/// and one per SMTP send under it. Without a listener nothing is created or extracted.
/// </summary>
internal static class ConsumerTracing
{
    public const string SourceName = "Notifications.Consumer";
    /// <summary>The consumer's source (its group-committed statements' spans too: <see cref="Shared.Data.CoalescingBatcher{T}"/>).</summary>
    public static ActivitySource Source { get; } = new(SourceName);

    /// <summary>On receipt: the trace context the message brought, to continue when a handler takes it.</summary>
    public static ActivityContext Capture(IReadOnlyBasicProperties properties) =>
        Source.HasListeners() ? TraceContextHeader.Extract(properties.Headers) : default;

    /// <summary>An envelope's table of its items' <c>traceparent</c>s by notification id, if it has one.</summary>
    public static IDictionary<string, object?>? ItemTraceParents(IDictionary<string, object?>? headers) =>
        headers is not null && headers.TryGetValue(EnvelopeSerializer.ItemTraceParents, out object? table) ? table as IDictionary<string, object?> : null;

    /// <summary>
    /// An envelope item's own headers (its <c>traceparent</c>, carried on if it is retried or dead-lettered) and,
    /// when traced here, the context to continue; nothing for an item the producer did not trace.
    /// </summary>
    public static (Dictionary<string, object?>? Headers, ActivityContext Context) ItemContext(IDictionary<string, object?>? traceParents, long? id)
    {
        if (traceParents is null || id is not { } notification
            || !traceParents.TryGetValue(notification.ToString(CultureInfo.InvariantCulture), out object? parent))
        {
            return (null, default);
        }

        var headers = new Dictionary<string, object?>(1) { [TraceContextHeader.TraceParent] = parent };
        return (headers, Source.HasListeners() ? TraceContextHeader.Extract(headers) : default);
    }

    /// <summary>The handling of one delivery, current while the handler works on it.</summary>
    public static Activity? StartProcessing(Delivery delivery)
    {
        var activity = Source.StartActivity("process notification", ActivityKind.Consumer, delivery.TraceContext);
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag("messaging.rabbitmq.delivery_tag", delivery.DeliveryTag).SetTag("notifications.attempt", delivery.Attempt);
        }

        return activity;
    }

    /// <summary>One SMTP send, a child of the current processing span.</summary>
    public static Activity? StartSend(long notificationId)
    {
        var activity = Source.StartActivity("smtp send", ActivityKind.Client);
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag("notifications.id", notificationId);
        }

        return activity;
    }
}
