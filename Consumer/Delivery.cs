namespace Notifications.Consumer;

/// <summary>One message taken from the work queue, copied out of the client's buffer.</summary>
/// <param name="Source">The channel it arrived on; it must be settled there.</param>
/// <param name="DeliveryTag">The channel's tag for it.</param>
/// <param name="Generation">The channel incarnation it arrived in (see <see cref="AckBatcher"/>).</param>
/// <param name="Body">The message bytes.</param>
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

    public Task AckAsync() => Source.Acks.AckAsync(DeliveryTag, Generation);

    public Task RequeueAsync() => Source.Acks.RequeueAsync(DeliveryTag, Generation);
}
