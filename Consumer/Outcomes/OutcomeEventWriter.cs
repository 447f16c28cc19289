using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Outcomes;

namespace Notifications.Consumer.Outcomes;

/// <summary>
/// The consumer's outcome events (docs/outcome-events.md). A type no enabled endpoint subscribes to costs a look at the
/// cached set and nothing more; an event notification (a webhook row of an outcome type) has no event of its own. The
/// delivered event rides in the delivery log's batch (<see cref="DeliveredAsync"/>); the others are written here, the
/// concurrent handlers' events coalesced into one statement, before the message is settled: a crash in between redelivers
/// it, and the event, made once, is not made again.
/// </summary>
internal sealed class OutcomeEventWriter : IAsyncDisposable
{
    private static readonly IReadOnlySet<OutcomeEvent> None = new HashSet<OutcomeEvent>();
    private readonly IOutcomeEventStore _store;
    private readonly OutcomeSubscriptions _subscriptions;
    private readonly TimeProvider _time;
    private readonly ILogger<OutcomeEventWriter> _logger;
    private readonly CoalescingBatcher<OutcomeEvent> _write;

    public OutcomeEventWriter(
        IOutcomeEventStore store, OutcomeSubscriptions subscriptions, TimeProvider time, IOptions<ConsumerOptions> options, ILogger<OutcomeEventWriter> logger)
    {
        _store = store;
        _subscriptions = subscriptions;
        _time = time;
        _logger = logger;
        _write = new(async (events, ct) => { await store.WriteAsync(events, ct); return None; }, options.Value.LogBatchSize,
            tracing: ConsumerTracing.Source, spanName: "outcome events write");
    }

    /// <summary>The delivered event of <paramref name="message"/> for the delivery log's batch, or null when nobody takes one.</summary>
    public async ValueTask<OutcomeEvent?> DeliveredAsync(NotificationMessage message, int attempt, CancellationToken cancellationToken) =>
        await WantedAsync(message, OutcomeEventTypes.Delivered, cancellationToken)
            ? For(message, OutcomeEventTypes.Delivered, $"{{\"attempt\":{attempt.ToString(CultureInfo.InvariantCulture)}}}")
            : null;

    /// <summary>Writes <paramref name="message"/>'s event of <paramref name="type"/> with <paramref name="detail"/> if an endpoint takes it.</summary>
    public async Task WriteAsync(NotificationMessage message, string type, string detail, CancellationToken cancellationToken)
    {
        if (await WantedAsync(message, type, cancellationToken))
        {
            await _write.SubmitAsync(For(message, type, detail), cancellationToken);
        }
    }

    /// <summary>The dead-lettered event of <paramref name="delivery"/>, when its bytes are a notification.</summary>
    public Task DeadLetteredAsync(Delivery delivery, string reason, CancellationToken cancellationToken)
    {
        var message = delivery.Message ?? (MessageSerializer.TryDeserialize(delivery.Body, out var read, out _) ? read : null);
        return message is { Id: > 0 }
            ? WriteAsync(message, OutcomeEventTypes.DeadLettered,
                OutcomeEventBody.Detail(("reason", reason), ("attempt", delivery.Attempt.ToString(CultureInfo.InvariantCulture))), cancellationToken)
            : Task.CompletedTask;
    }

    /// <summary>
    /// Whether <paramref name="message"/> is an event that follows another (a bounce follows its delivery) whose predecessor
    /// to the same endpoint is not settled yet: then it waits, parked, so the app never gets a bounce before its delivery.
    /// </summary>
    public async Task<bool> MustWaitAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        if (!OutcomeEvents.IsEventNotification(message.Channel, message.Subject) || !OutcomeEventTypes.FollowsAnother(message.Subject!)
            || !await _store.HasUnsettledPredecessorAsync(message.Id, cancellationToken))
        {
            return false;
        }

        ConsumerLog.OutcomeEventWaits(_logger, message.Id);
        return true;
    }

    public ValueTask DisposeAsync() => _write.DisposeAsync();

    private async ValueTask<bool> WantedAsync(NotificationMessage message, string type, CancellationToken cancellationToken) =>
        !OutcomeEvents.IsEventNotification(message.Channel, message.Subject) && await _subscriptions.WantAsync(type, cancellationToken);

    private OutcomeEvent For(NotificationMessage message, string type, string detail) =>
        new(message.Id, type, message.ChannelName, message.Recipient, _time.GetUtcNow(), detail);
}
