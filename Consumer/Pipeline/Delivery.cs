using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// One notification to handle: a single-notification message taken from a work queue (copied out of the
/// client's buffer), or one item of an envelope (<see cref="Envelope"/>), which the handlers treat the same way.
/// </summary>
/// <param name="Source">The channel it arrived on; it must be settled there.</param>
/// <param name="DeliveryTag">The channel's tag for it.</param>
/// <param name="Generation">The channel incarnation it arrived in (see <see cref="AckBatcher"/>).</param>
/// <param name="Body">The message bytes (an envelope item's own single-notification bytes).</param>
/// <param name="ContentType">The AMQP content type, if any.</param>
/// <param name="Type">The AMQP type property (the contract's name and version), if any.</param>
/// <param name="Attempt">1 for a first delivery; each retry adds one (header <c>x-attempt</c>).</param>
/// <param name="Redelivered">The broker's redelivered flag.</param>
/// <param name="Headers">The original headers, kept when the message is retried or dead-lettered.</param>
/// <param name="TraceContext">The trace it continues (see <see cref="ConsumerTracing.Capture"/>); default when not traced.</param>
internal sealed record Delivery(
    ConsumerChannel Source,
    ulong DeliveryTag,
    long Generation,
    byte[] Body,
    string? ContentType,
    string? Type,
    int Attempt,
    bool Redelivered,
    IReadOnlyDictionary<string, object?>? Headers,
    System.Diagnostics.ActivityContext TraceContext)
{
    /// <summary>Let in by its domain's rate-limit lane (<see cref="RateLimiting.RateLimitLanes"/>): send it, do not move it again.</summary>
    public bool Admitted { get; init; }

    /// <summary>The AMQP message id of the message it arrived in (an envelope's, for an item), if any.</summary>
    public string? MessageId { get; init; }

    /// <summary>The notification, when already read (an envelope item); else the handler reads <see cref="Body"/>.</summary>
    public Shared.Contract.NotificationMessage? Message { get; init; }

    /// <summary>Why <see cref="Body"/> is not a notification, when already known (a bad envelope or item): it is dead-lettered.</summary>
    public string? Invalid { get; init; }

    /// <summary>The envelope this is an item of: settling it settles the item, and the envelope is acked after its last.</summary>
    public EnvelopeSettlement? Envelope { get; init; }

    /// <summary>Its place in <see cref="Envelope"/>.</summary>
    public int EnvelopeIndex { get; init; }

    /// <summary>When the producer claimed it (<c>x-claimed-at</c> of the message it came in), if stamped.</summary>
    public DateTimeOffset? ClaimedAt { get; init; }

    /// <summary>When the producer published it (<c>x-published-at</c> of the message it came in), if stamped.</summary>
    public DateTimeOffset? PublishedAt { get; init; }

    /// <summary>
    /// The trace its handling belongs to (32 lowercase hex digits): the one it continues, else the current span's (a message
    /// that brought none), else the message's <c>traceparent</c> read now (this consumer traces nothing); null: untraced.
    /// </summary>
    public string? TraceId()
    {
        var context = TraceContext != default ? TraceContext
            : System.Diagnostics.Activity.Current?.Context ?? Shared.Messaging.TraceContextHeader.Extract(Headers as IDictionary<string, object?>);
        return context.TraceId == default ? null : context.TraceId.ToHexString();
    }

    /// <summary>True for an envelope item not settled yet: whatever ends it, the envelope settles it (see <see cref="EnvelopeSettlement"/>).</summary>
    public bool SettlesWithEnvelope => Envelope is { } envelope && !envelope.IsSettled(EnvelopeIndex);

    public Task AckAsync() => Envelope is { } envelope ? envelope.SettleAsync(EnvelopeIndex, ItemSettlement.Done) : Source.Acks.AckAsync(DeliveryTag, Generation);

    /// <summary>
    /// Back to the queue: a single message at once, in its place; an item with the envelope's other unfinished items once
    /// every item is settled (in its place only if no item of the envelope is done).
    /// </summary>
    public Task RequeueAsync() => Envelope is { } envelope ? envelope.SettleAsync(EnvelopeIndex, ItemSettlement.Requeue) : Source.Acks.RequeueAsync(DeliveryTag, Generation);

    /// <summary>An unsettled item to the work queue's tail, with the envelope's other unfinished items once every item is settled.</summary>
    public Task ReturnWithEnvelopeAsync() => Envelope!.SettleAsync(EnvelopeIndex, ItemSettlement.Return);

    /// <summary>An unsettled item parked for <paramref name="wait"/>, with the envelope's other parked items once every item is settled.</summary>
    public Task ParkWithEnvelopeAsync(TimeSpan wait) => Envelope!.ParkAsync(EnvelopeIndex, wait);
}
