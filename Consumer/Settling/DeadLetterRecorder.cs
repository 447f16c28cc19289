using Notifications.Consumer.Outcomes;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Settling;

/// <summary>
/// Writes each dead letter to the <c>dead_letter</c> table before the dead letter is published: a row of its
/// own (its key goes into the message's <c>x-dead-key</c> header) with the reason, attempts and instant, the
/// notification id when the body has one, and what identifies a message without one (AMQP message id, type,
/// content type, the bytes). The key is the delivery attempt's (<see cref="DeadLetterKey"/>): a redelivered copy of the
/// same attempt records nothing new. Concurrent handlers' records are coalesced into one statement, and so are the
/// lookups of redelivered copies (a consumer taking over a killed one's prefetch windows looks up every item at once).
/// A failure throws: the handler then gives the message back to the queue instead of dead-lettering it unrecorded.
/// </summary>
internal sealed class DeadLetterRecorder(IDeadLetterStore store, int maxBatch, OutcomeEventWriter outcomes) : IAsyncDisposable
{
    private static readonly IReadOnlySet<DeadLetterRecord> None = new HashSet<DeadLetterRecord>();
    private readonly CoalescingBatcher<DeadLetterRecord> _record =
        new(async (records, ct) => { await store.RecordAsync(records, ct); return None; }, maxBatch, tracing: ConsumerTracing.Source, spanName: "dead letter record");
    private readonly CoalescingBatcher<Guid> _recorded = new(store.FindRecordedAsync, maxBatch, concurrency: 1, tracing: ConsumerTracing.Source, spanName: "dead letter lookup");

    /// <summary>Records that <paramref name="delivery"/> is dead-lettered at <paramref name="at"/> for <paramref name="reason"/>; returns the record.</summary>
    public async Task<DeadLetterRecord> RecordAsync(Delivery delivery, string reason, DateTimeOffset at, CancellationToken cancellationToken)
    {
        var record = new DeadLetterRecord(DeadLetterKey.NotificationIdOf(delivery), reason, delivery.Attempt, at)
        {
            Key = DeadLetterKey.For(delivery),
            MessageId = delivery.MessageId,
            MessageType = delivery.Type,
            ContentType = delivery.ContentType,
            Body = delivery.Body,
        };
        // The event first: a failure of either throws and the message comes back, and the event is made once.
        await outcomes.DeadLetteredAsync(delivery, reason, cancellationToken);
        await _record.SubmitAsync(record, cancellationToken);
        return record;
    }

    /// <summary>The dead letter already recorded for <paramref name="delivery"/>'s attempt, or null.</summary>
    public async Task<DeadLetterRecord?> FindAsync(Delivery delivery, CancellationToken cancellationToken)
    {
        var key = DeadLetterKey.For(delivery);
        return await _recorded.SubmitAsync(key, cancellationToken) ? await store.FindAsync(key, cancellationToken) : null;
    }

    public async ValueTask DisposeAsync()
    {
        await _record.DisposeAsync();
        await _recorded.DisposeAsync();
    }
}
