using System.Diagnostics;
using System.Text;

namespace Notifications.Shared.Messaging;

/// <summary>
/// The W3C trace context of a notification message, carried in its AMQP headers under the W3C names
/// (<c>traceparent</c>, and <c>tracestate</c> if there is one), written by the producer's publish span and
/// read by the consumer. The workers do this themselves rather than through RabbitMQ.Client's own
/// publish/deliver spans: those cost two more spans per notification, with a dozen attributes each (the
/// peer's address formatted per message among them). The names are the ones RabbitMQ.Client's propagation
/// uses, so other tools reading the queue still find the context.
/// </summary>
public static class TraceContextHeader
{
    /// <summary>The header holding the W3C <c>traceparent</c>.</summary>
    public const string TraceParent = "traceparent";

    /// <summary>The header holding the W3C <c>tracestate</c>, when the trace has one.</summary>
    public const string TraceState = "tracestate";

    /// <summary>Writes <paramref name="activity"/>'s context (sampled or not: downstream keeps the decision).</summary>
    public static void Inject(Activity activity, IDictionary<string, object?> headers)
    {
        ArgumentNullException.ThrowIfNull(activity);
        ArgumentNullException.ThrowIfNull(headers);
        headers[TraceParent] = activity.Id;
        if (activity.TraceStateString is { Length: > 0 } state)
        {
            headers[TraceState] = state;
        }
    }

    /// <summary>The context in <paramref name="headers"/>, or default if there is none or it is malformed.</summary>
    public static ActivityContext Extract(IDictionary<string, object?>? headers)
    {
        if (headers is null || !headers.TryGetValue(TraceParent, out object? parent) || Text(parent) is not { } traceParent)
        {
            return default;
        }

        string? traceState = headers.TryGetValue(TraceState, out object? state) ? Text(state) : null;
        return ActivityContext.TryParse(traceParent, traceState, isRemote: true, out var context) ? context : default;
    }

    // An AMQP long string arrives as bytes; one published in this process (tests) may still be a string.
    private static string? Text(object? value) => value switch
    {
        byte[] bytes => Encoding.ASCII.GetString(bytes),
        string text => text,
        _ => null,
    };
}
