using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;
using Notifications.Shared.Outcomes;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// The handlers' view of the delivery log: per-notification calls, coalesced into batched statements. A call the database
/// fails is tried again until it goes through (<see cref="InfrastructureBreaker"/>): the delivery waits, unspent; only the
/// handler's token ends the wait.
/// </summary>
internal sealed class DeliveryLog : IAsyncDisposable
{
    private readonly InfrastructureBreaker _infrastructure;
    private static readonly IReadOnlySet<long> None = new HashSet<long>();
    private static readonly IReadOnlySet<SentNotification> NoneSent = new HashSet<SentNotification>();
    private static readonly IReadOnlySet<MaybeSentNotification> NoneMaybeSent = new HashSet<MaybeSentNotification>();
    private readonly CoalescingBatcher<long> _findSent;
    private readonly CoalescingBatcher<SentNotification> _recordSent;
    private readonly CoalescingBatcher<long> _markSending;
    private readonly CoalescingBatcher<long> _release;
    private readonly CoalescingBatcher<long> _markHandingBack;
    private readonly CoalescingBatcher<long> _releaseHandedBack;
    private readonly CoalescingBatcher<MaybeSentNotification> _recordMaybeSent;
    private readonly CoalescingBatcher<FailedAttempt> _recordFailed;
    private static readonly IReadOnlySet<FailedAttempt> NoneFailed = new HashSet<FailedAttempt>();

    public DeliveryLog(IDeliveryLogStore store, int maxBatch, InfrastructureBreaker infrastructure)
    {
        _infrastructure = infrastructure;
        _findSent = new(store.FindSentAsync, maxBatch, tracing: ConsumerTracing.Source, spanName: "delivery log find sent");
        _recordSent = new(async (sent, ct) => { await store.RecordSentAsync(sent, ct); return NoneSent; }, maxBatch, tracing: ConsumerTracing.Source, spanName: "delivery log record sent");
        // Two copies of one notification may ask in one batch; the statement inserts the id once, so one of them owns the send.
        _markSending = new(store.TryMarkSendingAsync, maxBatch, tracing: ConsumerTracing.Source, spanName: "delivery log mark sending", exclusive: true);
        _release = new(async (ids, ct) => { await store.ReleaseAsync(ids, ct); return None; }, maxBatch, concurrency: 1, tracing: ConsumerTracing.Source, spanName: "delivery log release");
        _markHandingBack = new(async (ids, ct) => { await store.MarkHandingBackAsync(ids, ct); return None; }, maxBatch, concurrency: 1,
            tracing: ConsumerTracing.Source, spanName: "delivery log mark handing back");
        _releaseHandedBack = new(async (ids, ct) => { await store.ReleaseHandedBackAsync(ids, ct); return None; }, maxBatch, concurrency: 1,
            tracing: ConsumerTracing.Source, spanName: "delivery log release handed back");
        _recordMaybeSent = new(async (maybeSent, ct) => { await store.RecordMaybeSentAsync(maybeSent, ct); return NoneMaybeSent; }, maxBatch, concurrency: 1,
            tracing: ConsumerTracing.Source, spanName: "delivery log record maybe sent");
        _recordFailed = new(async (failed, ct) => { await store.RecordFailedAttemptsAsync(failed, ct); return NoneFailed; }, maxBatch, concurrency: 1,
            tracing: ConsumerTracing.Source, spanName: "delivery log record failed attempt");
    }

    /// <summary>Whether the notification was already sent (at-least-once duplicate check).</summary>
    public Task<bool> IsSentAsync(long id, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _findSent.SubmitAsync(id, ct), cancellationToken);

    /// <summary>
    /// Records the notification as sent, with its outbox insert time (the delivery SLO's start), the attempt that succeeded,
    /// and what its story tells (claimed, published, its trace) from <paramref name="delivery"/>. With its delivered event,
    /// if an endpoint takes one (<paramref name="outcome"/>), in the same statement's transaction.
    /// </summary>
    public Task RecordSentAsync(long id, DateTimeOffset createdAt, Delivery delivery, OutcomeEvent? outcome, CancellationToken cancellationToken)
    {
        var sent = new SentNotification(id, createdAt == default ? null : createdAt, delivery.Attempt)
        {
            Outcome = outcome,
            ClaimedAt = delivery.ClaimedAt,
            PublishedAt = delivery.PublishedAt,
            TraceId = delivery.TraceId(),
        };
        return _infrastructure.RunAsync(ct => _recordSent.SubmitAsync(sent, ct), cancellationToken);
    }

    /// <summary>At-most-once: true if this caller now owns the single send of the notification.</summary>
    public Task<bool> TryMarkSendingAsync(long id, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _markSending.SubmitAsync(id, ct), cancellationToken);

    /// <summary>At-most-once: gives up the mark of a send known not to have happened.</summary>
    public Task ReleaseAsync(long id, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _release.SubmitAsync(id, ct), cancellationToken);

    /// <summary>At-most-once, before a hand-back's copy is published: the mark becomes one the next copy takes over.</summary>
    public Task MarkHandingBackAsync(long id, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _markHandingBack.SubmitAsync(id, ct), cancellationToken);

    /// <summary>At-most-once, once the hand-back's copy is confirmed: its mark goes, unless a copy took it over meanwhile.</summary>
    public Task ReleaseHandedBackAsync(long id, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _releaseHandedBack.SubmitAsync(id, ct), cancellationToken);

    /// <summary>At-most-once: records why the marked notification's send has an unknown outcome; the mark stays.</summary>
    public Task RecordMaybeSentAsync(long id, int attempt, string reason, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _recordMaybeSent.SubmitAsync(new MaybeSentNotification(id, attempt, reason), ct), cancellationToken);

    /// <summary>A failed attempt that is tried again, for the notification's story (the failure path only).</summary>
    public Task RecordFailedAttemptAsync(long id, Delivery delivery, string reason, CancellationToken cancellationToken) =>
        _infrastructure.RunAsync(ct => _recordFailed.SubmitAsync(new FailedAttempt(id, delivery.Attempt, reason, delivery.TraceId()), ct), cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await _findSent.DisposeAsync();
        await _recordSent.DisposeAsync();
        await _markSending.DisposeAsync();
        await _release.DisposeAsync();
        await _markHandingBack.DisposeAsync();
        await _releaseHandedBack.DisposeAsync();
        await _recordMaybeSent.DisposeAsync();
        await _recordFailed.DisposeAsync();
    }
}
