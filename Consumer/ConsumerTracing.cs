using System.Diagnostics;
using RabbitMQ.Client;

namespace Notifications.Consumer;

/// <summary>
/// The consumer's spans (source <c>Notifications.Consumer</c>): one per delivery handled, a child of the
/// trace context the message brought (RabbitMQ.Client's deliver span, or the headers), and one per SMTP
/// send under it. Without a listener nothing is created or extracted.
/// </summary>
internal static class ConsumerTracing
{
    public const string SourceName = "Notifications.Consumer";
    private static readonly ActivitySource Source = new(SourceName);

    /// <summary>
    /// On receipt: the context to continue. The client's deliver span is current while the receive callback
    /// runs (it continues the publisher's trace); the handler runs later, on another flow, so it is kept.
    /// </summary>
    public static ActivityContext Capture(IReadOnlyBasicProperties properties)
    {
        if (!Source.HasListeners())
        {
            return default;
        }

        return Activity.Current is { } deliver ? deliver.Context : RabbitMQActivitySource.ContextExtractor(properties);
    }

    /// <summary>The handling of one delivery, current while the handler works on it.</summary>
    public static Activity? StartProcessing(Delivery delivery)
    {
        var activity = Source.StartActivity("process notification", ActivityKind.Consumer, delivery.TraceContext);
        activity?.SetTag("messaging.rabbitmq.delivery_tag", delivery.DeliveryTag).SetTag("notifications.attempt", delivery.Attempt);
        return activity;
    }

    /// <summary>One SMTP send, a child of the current processing span.</summary>
    public static Activity? StartSend(long notificationId)
    {
        var activity = Source.StartActivity("smtp send", ActivityKind.Client);
        activity?.SetTag("notifications.id", notificationId);
        return activity;
    }

    /// <summary>
    /// One group-committed delivery-log statement: a trace of its own (its database span under it), linked
    /// to the processing span of every delivery it answers.
    /// </summary>
    public static Activity? StartGroupCommit<TCaller>(string name, List<TCaller> callers, Func<TCaller, ActivityContext> contextOf)
    {
        if (!Source.HasListeners())
        {
            return null;
        }

        var links = new List<ActivityLink>(callers.Count);
        foreach (var caller in callers)
        {
            if (contextOf(caller) is var context && context != default)
            {
                links.Add(new ActivityLink(context));
            }
        }

        var activity = Source.StartActivity(name, ActivityKind.Internal, parentContext: default, links: links);
        activity?.SetTag("notifications.batch.size", callers.Count);
        return activity;
    }
}
