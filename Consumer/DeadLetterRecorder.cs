using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer;

/// <summary>
/// Writes each dead letter's reason, attempts and instant to the <c>dead_letter</c> table before the dead
/// letter is published, so a notification's status is known without reading the queue. Concurrent handlers'
/// records are coalesced into one statement. A failure throws: the handler then gives the message back to
/// the queue instead of dead-lettering it unrecorded.
/// </summary>
internal sealed class DeadLetterRecorder(IDeadLetterStore store, int maxBatch) : IAsyncDisposable
{
    private static readonly IReadOnlySet<DeadLetterRecord> None = new HashSet<DeadLetterRecord>();
    private readonly CoalescingBatcher<DeadLetterRecord> _record =
        new(async (records, ct) => { await store.RecordAsync(records, ct); return None; }, maxBatch, spanName: "dead letter record");

    /// <summary>Records that <paramref name="delivery"/> is dead-lettered at <paramref name="at"/> for <paramref name="reason"/>.</summary>
    public Task RecordAsync(Delivery delivery, string reason, DateTimeOffset at, CancellationToken cancellationToken) =>
        _record.SubmitAsync(new DeadLetterRecord(NotificationIdOf(delivery), reason, delivery.Attempt, at), cancellationToken);

    public ValueTask DisposeAsync() => _record.DisposeAsync();

    // The message may be anything (that may be why it is dead-lettered): its id if the JSON has one.
    private static long? NotificationIdOf(Delivery delivery) =>
        MessageSerializer.TryDeserialize(delivery.Body, out var message, out _) ? message.Id : null;
}
