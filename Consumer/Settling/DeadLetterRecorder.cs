using Notifications.Consumer.Pipeline;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Settling;

/// <summary>
/// Writes each dead letter to the <c>dead_letter</c> table before the dead letter is published: a row of its
/// own (its key goes into the message's <c>x-dead-key</c> header) with the reason, attempts and instant, the
/// notification id when the body has one, and what identifies a message without one (AMQP message id, type,
/// content type, the bytes). Concurrent handlers' records are coalesced into one statement. A failure throws:
/// the handler then gives the message back to the queue instead of dead-lettering it unrecorded.
/// </summary>
internal sealed class DeadLetterRecorder(IDeadLetterStore store, int maxBatch) : IAsyncDisposable
{
    private static readonly IReadOnlySet<DeadLetterRecord> None = new HashSet<DeadLetterRecord>();
    private readonly CoalescingBatcher<DeadLetterRecord> _record =
        new(async (records, ct) => { await store.RecordAsync(records, ct); return None; }, maxBatch, spanName: "dead letter record");

    /// <summary>Records that <paramref name="delivery"/> is dead-lettered at <paramref name="at"/> for <paramref name="reason"/>; returns the row's key.</summary>
    public async Task<Guid> RecordAsync(Delivery delivery, string reason, DateTimeOffset at, CancellationToken cancellationToken)
    {
        var record = new DeadLetterRecord(NotificationIdOf(delivery), reason, delivery.Attempt, at)
        {
            Key = Guid.CreateVersion7(at),
            MessageId = delivery.MessageId,
            MessageType = delivery.Type,
            ContentType = delivery.ContentType,
            Body = delivery.Body,
        };
        await _record.SubmitAsync(record, cancellationToken);
        return record.Key.Value;
    }

    public ValueTask DisposeAsync() => _record.DisposeAsync();

    // The message may be anything (that may be why it is dead-lettered): its id only if the JSON has a real one.
    private static long? NotificationIdOf(Delivery delivery) =>
        delivery.Message is { Id: > 0 } message ? message.Id : MessageSerializer.ReadId(delivery.Body);
}
