using System.Diagnostics;
using System.Text;
using OpenTelemetry.Context.Propagation;

namespace Notifications.Shared.Messaging;

/// <summary>
/// The W3C trace context of a notification message, carried in its AMQP headers under the W3C names
/// (<c>traceparent</c>, and <c>tracestate</c> if there is one), written by the producer's publish span and
/// read by the consumer, through OpenTelemetry's W3C <see cref="TraceContextPropagator"/>. The workers do this
/// themselves rather than through RabbitMQ.Client's own publish/deliver spans: those cost two more spans per
/// notification, with a dozen attributes each (the peer's address formatted per message among them). The names
/// are the ones RabbitMQ.Client's propagation uses, so other tools reading the queue still find the context.
/// </summary>
public static class TraceContextHeader
{
    /// <summary>The header holding the W3C <c>traceparent</c>.</summary>
    public const string TraceParent = "traceparent";

    /// <summary>The header holding the W3C <c>tracestate</c>, when the trace has one.</summary>
    public const string TraceState = "tracestate";

    // The W3C propagator itself, not Propagators.DefaultTextMapPropagator: that one is a no-op until the SDK's static
    // constructor has run (so unit tests and a process traced by a plain ActivityListener would extract nothing), and
    // whatever a library sets it to (B3, baggage) would change the queue's headers, which are a contract with other readers.
    private static readonly TraceContextPropagator Propagator = new();

    /// <summary>Writes <paramref name="activity"/>'s context (sampled or not: downstream keeps the decision).</summary>
    public static void Inject(Activity activity, IDictionary<string, object?> headers)
    {
        ArgumentNullException.ThrowIfNull(activity);
        ArgumentNullException.ThrowIfNull(headers);
        Propagator.Inject(new PropagationContext(activity.Context, default), headers, static (carrier, name, value) => carrier[name] = value);
    }

    /// <summary>
    /// Writes only <paramref name="activity"/>'s <c>traceparent</c> into <paramref name="table"/> under <paramref name="key"/>:
    /// an envelope's table of its items' contexts (<see cref="Contract.EnvelopeSerializer.ItemTraceParents"/>), one value an item.
    /// </summary>
    public static void InjectTraceParent(Activity activity, IDictionary<string, object?> table, string key)
    {
        ArgumentNullException.ThrowIfNull(activity);
        ArgumentNullException.ThrowIfNull(table);
        Propagator.Inject(new PropagationContext(activity.Context, default), (table, key), static (carrier, name, value) =>
        {
            if (name == TraceParent)
            {
                carrier.table[carrier.key] = value;
            }
        });
    }

    /// <summary>The context in <paramref name="headers"/>, or default if there is none or it is malformed.</summary>
    public static ActivityContext Extract(IDictionary<string, object?>? headers) =>
        headers is null ? default : Propagator.Extract(default, headers, Values).ActivityContext;

    private static IEnumerable<string>? Values(IDictionary<string, object?> headers, string name) =>
        headers.TryGetValue(name, out object? value) && Text(value) is { } text ? [text] : null;

    // An AMQP long string arrives as bytes; one published in this process (tests) may still be a string.
    private static string? Text(object? value) => value switch
    {
        byte[] bytes => Encoding.ASCII.GetString(bytes),
        string text => text,
        _ => null,
    };
}
