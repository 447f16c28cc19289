using System.Diagnostics;
using System.Runtime.ExceptionServices;
using Microsoft.Extensions.Logging;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Outcomes;
using Notifications.Consumer.Preferences;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Channels.Live;
using Notifications.Consumer.Suppression;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// One notification's way through a handler, whichever its channel: decode and validate, check the suppression list, the
/// subscribers' preferences (a row with a category) and the
/// rate-limit lanes, the channel's breaker, let the channel prepare it, then check the delivery log, send, log, ack — in the
/// order the configured <see cref="DeliveryMode"/> prescribes. Every outcome ends in an ack, a retry or a dead letter;
/// nothing is dropped without a trace and no exception escapes. While the SMTP relay's breaker is open a message goes back
/// to the work queue without spending an attempt; while its destination turns sends away (an endpoint's or provider's breaker
/// open, a Retry-After pause) it is parked in a delay queue, unspent, and no handler waits for it.
/// While the database or the broker fails, the delivery waits in the handler, unspent (<see cref="InfrastructureBreaker"/>).
/// </summary>
internal sealed class DeliveryHandler(
    DeliveryLog log, InFlightNotifications inFlight, OutboundPublisher outbound, ChannelRegistry channels, RateLimitLanes lanes,
    ConsumerOptions options, RabbitMqOptions rabbit, ConsumerStats stats, TimeProvider time, FaultInjector faults, ILogger<DeliveryHandler> logger,
    SuppressionList suppression, PreferenceCheck preferences, InfrastructureBreaker infrastructure, LiveFallback liveFallback,
    OutcomeEventWriter outcomes)
{
    private readonly DeliverySettler settle = new(outbound, infrastructure, rabbit, stats, logger, log);
    private readonly HandBackSettler handBack = new(log, outbound, infrastructure, rabbit, stats, logger);

    /// <summary>
    /// Handles <paramref name="delivery"/> up to its send and returns what is left of it: a sent delivery's log write and ack,
    /// which wait for the delivery log's next batch commit. The handler takes its next delivery meanwhile instead of waiting
    /// for the batch (the unacked delivery still counts against the channel's prefetch). Neither this nor the returned task
    /// throws, except as shutdown aborts them (the delivery requeued).
    /// </summary>
    public async Task<Task> HandleAsync(Delivery delivery, HandlerSenders senders, CancellationToken cancellationToken)
    {
        try
        {
            return SettledAsync(delivery, await ProcessAsync(delivery, senders, cancellationToken), cancellationToken);
        }
        catch (Exception ex)
        {
            await FailedAsync(delivery, ex, cancellationToken);
            return Task.CompletedTask;
        }
    }

    private async Task SettledAsync(Delivery delivery, Task settling, CancellationToken cancellationToken)
    {
        try
        {
            await settling;
        }
        catch (Exception ex)
        {
            try
            {
                await FailedAsync(delivery, ex, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Requeued at shutdown (above); the handler's loop is ending anyway.
            }
        }
    }

    private async Task FailedAsync(Delivery delivery, Exception exception, CancellationToken cancellationToken)
    {
        switch (exception)
        {
            case OperationCanceledException when cancellationToken.IsCancellationRequested:
                // Aborted at shutdown: back to the queue unless it was settled. An envelope's item goes back with the envelope's
                // other unsettled items only, never with the settled ones.
                await delivery.RequeueAsync();
                ExceptionDispatchInfo.Throw(exception);
                break;
            case var ex when !cancellationToken.IsCancellationRequested:
                // A fault of the message or the code (the database's and the broker's failures are waited out where they happen):
                // retried, and dead-lettered after the last attempt, so a poison message cannot hold a handler.
                ConsumerLog.HandlerFailed(logger, delivery.DeliveryTag, ex);
                await settle.RetryOrDeadLetterAsync(delivery, $"processing failed: {ex.Message}", cancellationToken);
                break;
            default:
                ExceptionDispatchInfo.Throw(exception);
                break;
        }
    }

    private async Task<Task> ProcessAsync(Delivery delivery, HandlerSenders senders, CancellationToken cancellationToken)
    {
        // A copy of an attempt whose dead letter was recorded and maybe not published (a crash in between): finish that.
        if (delivery.Redelivered && await settle.FinishDeadLetterAsync(delivery, cancellationToken))
        {
            return Task.CompletedTask;
        }

        var message = Decode(delivery, out string? invalid);
        if (message is null)
        {
            await settle.DeadLetterAsync(delivery, invalid!, cancellationToken);
            return Task.CompletedTask;
        }

        if (channels.Find(message.ChannelName) is not { } channel)
        {
            await settle.DeadLetterAsync(delivery, $"channel '{message.ChannelName}' is not enabled on this consumer (docs/channels.md)", cancellationToken);
            return Task.CompletedTask;
        }

        if (await suppression.MatchAsync(message, cancellationToken) is { } key)
        {
            // Before the lanes and the breaker: nothing to wait for, in either delivery mode nothing is sent.
            await SuppressedAsync(delivery, message, key, cancellationToken);
            return Task.CompletedTask;
        }

        if (message.Category is not null
            && await infrastructure.RunAsync(ct => preferences.OptedOutAsync(message, ct), cancellationToken) is { } optedOut)
        {
            // As a suppressed one: nothing sent in either mode, recorded with who opted out, acked; not an error.
            await OptedOutAsync(delivery, message, optedOut, cancellationToken);
            return Task.CompletedTask;
        }

        if (message.LiveFallbackOf is { } liveId)
        {
            // Live, then push: the push copy waits for its live delivery's ack, parked (no handler held, no rate slot spent).
            var decision = await infrastructure.RunAsync(ct => liveFallback.DecideAsync(message, liveId, log, ct), cancellationToken);
            if (decision.WaitFor is { } wait)
            {
                await settle.WaitAsync(delivery, wait, cancellationToken);
                return Task.CompletedTask;
            }

            if (decision.Reason is { } acked)
            {
                await infrastructure.RunAsync(ct => liveFallback.RecordNotNeededAsync(message, delivery.Attempt, acked, ct), cancellationToken);
                ConsumerLog.LiveAcked(logger, message.Id, acked);
                await delivery.AckAsync();
                return Task.CompletedTask;
            }
        }

        if (!delivery.Admitted && lanes.LaneFor(channel.RateLimitDomain(message)) is { } lane)
        {
            // A rate-limited domain: into its lane, where it waits for its slot without holding this handler.
            await settle.ForwardAsync(delivery, lane, cancellationToken);
            return Task.CompletedTask;
        }

        var breaker = channel.BreakerFor(message);
        var pausedFor = PausedFor(channel, message);
        if (pausedFor > TimeSpan.Zero || !breaker.TryPass())
        {
            // Not even a look at the delivery log: the broker keeps the message, in its place (the relay's breaker, which stops
            // the consumer) or parked in a delay queue (its destination's breaker or pause, while the others' messages go on).
            await settle.RejectedAsync(delivery, breaker, Later(breaker.RejectsFor, pausedFor), cancellationToken);
            return Task.CompletedTask;
        }

        if (await infrastructure.RunAsync(ct => outcomes.MustWaitAsync(message, ct), cancellationToken))
        {
            // A later event (a bounce) before its earlier one (the delivery) reached the endpoint: parked until about then.
            await settle.WaitAsync(delivery, Later(breaker.RejectsFor, rabbit.RetryDelays is [var first, ..] ? first : TimeSpan.FromSeconds(1)), cancellationToken);
            return Task.CompletedTask;
        }

        // Made ready by its channel (a template rendered, an endpoint looked up); one that cannot be is dead-lettered with why.
        var (outgoing, unsendable) = await infrastructure.RunAsync(ct => channel.PrepareAsync(message, ct).AsTask(), cancellationToken);
        if (outgoing is null)
        {
            await settle.DeadLetterAsync(delivery, unsendable!, cancellationToken);
            return Task.CompletedTask;
        }

        var send = new Send(channel, breaker, senders.For(channel), message, outgoing);
        faults.Reached("before-send");
        if (options.DeliveryMode == DeliveryMode.AtMostOnce)
        {
            // The mark in the log is taken atomically: of two copies at once, one gets it.
            return await AtMostOnceAsync(delivery, send, cancellationToken);
        }

        // Held until the delivery is logged: a second copy waits for the first's log write, then finds it sent.
        var entry = await inFlight.EnterAsync(outgoing.NotificationId, cancellationToken);
        try
        {
            return LeaveAfterAsync(await AtLeastOnceAsync(delivery, send, cancellationToken), entry);
        }
        catch
        {
            entry.Dispose();
            throw;
        }
    }

    private static async Task LeaveAfterAsync(Task settling, InFlightNotifications.Entry entry)
    {
        try
        {
            await settling;
        }
        finally
        {
            entry.Dispose();
        }
    }

    // One send's parts: its channel, the breaker it goes through, this handler's sender of the channel, the notification and
    // what it sends.
    private readonly record struct Send(IChannel Channel, RelayBreaker Breaker, IChannelSender Sender, NotificationMessage Message, Outgoing Outgoing)
    {
        public long NotificationId => Outgoing.NotificationId;

        // The wait for its rate-limit slots comes first, outside the breaker: no send timeout cuts it and it is no failure.
        public async Task RunAsync(CancellationToken cancellationToken)
        {
            await Sender.WaitTurnAsync(Outgoing, cancellationToken);
            await Breaker.SendAsync(Sender, Outgoing, cancellationToken);
        }
    }

    private NotificationMessage? Decode(Delivery delivery, out string? reason)
    {
        reason = delivery.Invalid;
        if (reason is not null)
        {
            return null;
        }

        if (delivery.Message is { } unpacked)
        {
            return Validate(unpacked, out reason);
        }

        if (!string.Equals(delivery.ContentType, MessageSerializer.ContentType, StringComparison.OrdinalIgnoreCase))
        {
            reason = $"wrong content type: '{delivery.ContentType}', expected '{MessageSerializer.ContentType}'";
            return null;
        }

        // An absent type is accepted (plain publishers); a present one must be this contract's.
        if (delivery.Type is { } type && type != MessageSerializer.MessageType)
        {
            reason = $"unknown message type: '{type}', expected '{MessageSerializer.MessageType}'";
            return null;
        }

        return MessageSerializer.TryDeserialize(delivery.Body, out var message, out reason) ? Validate(message, out reason) : null;
    }

    private NotificationMessage? Validate(NotificationMessage message, out string? reason)
    {
        reason = NotificationValidator.Validate(message);
        if (reason is null && NotificationValidator.IsExpired(message, time.GetUtcNow()))
        {
            reason = $"expired at {message.ExpiresAt:O}";
        }

        return reason is null ? message : null;
    }

    // Send, log, ack: a crash after the send and before the log sends again on redelivery.
    private async Task<Task> AtLeastOnceAsync(Delivery delivery, Send send, CancellationToken cancellationToken)
    {
        if (await log.IsSentAsync(send.NotificationId, cancellationToken))
        {
            stats.AddDuplicate();
            await delivery.AckAsync();
            return Task.CompletedTask;
        }

        try
        {
            await send.RunAsync(cancellationToken);
        }
        catch (BrokenCircuitException)
        {
            await settle.RejectedAsync(delivery, send.Breaker, send.Breaker.RejectsFor, cancellationToken);
            return Task.CompletedTask;
        }
        catch (Exception ex) when (IsNotSent(ex) && IsTurnedAway(send))
        {
            await settle.ReturnUnspentAsync(delivery, send.Breaker, ParkFor(send), send.NotificationId, cancellationToken);
            return Task.CompletedTask;
        }
        catch (Exception ex) when (RelayBreaker.IsRelayFailure(ex))
        {
            await settle.RetryOrDeadLetterAsync(delivery, Describe(ex), cancellationToken);
            return Task.CompletedTask;
        }
        catch (SendFailedException ex)
        {
            await SuppressIfGoneAsync(send, ex, cancellationToken);
            await settle.DeadLetterAsync(delivery, Describe(ex), cancellationToken);
            return Task.CompletedTask;
        }

        faults.Reached("after-send");
        return LoggedAndAckedAsync(delivery, send, cancellationToken);
    }

    // Mark, ack, send: the mark in the log (not the ack, which the broker never confirms) is what stops
    // a redelivered copy; a crash after the mark and before the send loses the notification.
    // An envelope item is settled after its send instead: its ack would wait for the envelope's other items anyway,
    // and the mark keeps a redelivered envelope's item from being sent again; so an item that was not sent can still
    // go back with its envelope instead of beside it.
    private async Task<Task> AtMostOnceAsync(Delivery delivery, Send send, CancellationToken cancellationToken)
    {
        if (!await log.TryMarkSendingAsync(send.NotificationId, cancellationToken))
        {
            stats.AddDuplicate();
            await delivery.AckAsync();
            return Task.CompletedTask;
        }

        if (delivery.Envelope is null)
        {
            await delivery.AckAsync();
        }

        faults.Reached("after-ack");
        try
        {
            await send.RunAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is SendFailedException or BrokenCircuitException or TimeoutRejectedException)
        {
            await AtMostOnceSendFailedAsync(delivery, send, ex, cancellationToken);
            return Task.CompletedTask;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Aborted at shutdown before the message was handed over (after it, the sender reports Unknown instead):
            // not sent, and already acked — queue a copy and give the mark back, or it would be lost.
            await handBack.AbortedAsync(delivery, send.NotificationId);
            throw;
        }

        faults.Reached("after-send");
        return LoggedAndAckedAsync(delivery, send, cancellationToken);
    }

    private async Task AtMostOnceSendFailedAsync(Delivery delivery, Send send, Exception ex, CancellationToken cancellationToken)
    {
        if (ex is BrokenCircuitException)
        {
            stats.AddHeldBack(send.Breaker);
        }

        bool unspent = IsTurnedAway(send) || ex is BrokenCircuitException;
        switch (ex)
        {
            case var notSent when IsNotSentAtMostOnce(notSent) && delivery.Envelope is null:
                // Not sent (refused before the message was taken, cut off, or turned away by the breaker), and acked: a copy
                // (unspent if its destination turns sends away, parked or into the work queue; else a retry), then the mark goes.
                await (unspent
                    ? handBack.UnspentAsync(delivery, send.NotificationId, send.Breaker, ParkFor(send), cancellationToken)
                    : handBack.RetryAsync(delivery, send.NotificationId, Describe(ex), cancellationToken));
                break;
            case var notSent when IsNotSentAtMostOnce(notSent):
                // An envelope item, not acked (the broker keeps its envelope): the mark goes, then the item is settled.
                await log.ReleaseAsync(send.NotificationId, cancellationToken);
                await (unspent
                    ? settle.ReturnUnspentAsync(delivery, send.Breaker, ParkFor(send), send.NotificationId, cancellationToken)
                    : settle.RetryOrDeadLetterAsync(delivery, Describe(ex), cancellationToken));
                break;
            case SendFailedException { Kind: SendFailureKind.Permanent } failed:
                await SuppressIfGoneAsync(send, failed, cancellationToken);
                await settle.DeadLetterAsync(delivery, Describe(ex), cancellationToken);
                break;
            default:
                await MaybeSentAsync(delivery, send, ex, cancellationToken);
                break;
        }
    }

    // Lost after the message was handed over, or an error answer to it that does not say it was not taken (a gateway's 502
    // after the app took it): maybe sent. At most once means not again: the mark stays, with why (status 'maybe_sent').
    private async Task MaybeSentAsync(Delivery delivery, Send send, Exception ex, CancellationToken cancellationToken)
    {
        stats.AddUnknown();
        ConsumerLog.OutcomeUnknown(logger, send.NotificationId, ex);
        try
        {
            await log.RecordMaybeSentAsync(send.NotificationId, delivery.Attempt, Describe(ex), cancellationToken);
        }
        catch (Exception failure) when (!cancellationToken.IsCancellationRequested)
        {
            // The mark is what keeps it from being sent again; without its reason the status says 'in_flight'.
            ConsumerLog.MaybeSentNotRecorded(logger, send.NotificationId, failure);
        }

        await delivery.AckAsync();
    }

    // Not sent, recorded 'suppressed', acked. A crash before the ack redelivers it, to the same end; a row the log has
    // already ('sent', or at most once 'sending') stays, so a notification sent before its address was suppressed stays sent.
    private async Task SuppressedAsync(Delivery delivery, NotificationMessage message, string key, CancellationToken cancellationToken)
    {
        await infrastructure.RunAsync(ct => suppression.RecordSuppressedAsync(message, delivery.Attempt, ct), cancellationToken);
        await infrastructure.RunAsync(
            ct => outcomes.WriteAsync(message, OutcomeEventTypes.Suppressed, OutcomeEventBody.Detail(("suppressed_by", key)), ct), cancellationToken);
        ConsumerLog.Suppressed(logger, message.Id, key);
        await delivery.AckAsync();
    }

    // Not sent, recorded 'opted_out' with its reason, acked; a redelivered copy ends the same way, a row the log has stays.
    private async Task OptedOutAsync(Delivery delivery, NotificationMessage message, string reason, CancellationToken cancellationToken)
    {
        await infrastructure.RunAsync(ct => preferences.RecordAsync(message, delivery.Attempt, reason, ct), cancellationToken);
        await infrastructure.RunAsync(ct => outcomes.WriteAsync(message, OutcomeEventTypes.OptedOut, OutcomeEventBody.Detail(("reason", reason)), ct), cancellationToken);
        ConsumerLog.OptedOut(logger, message.Id, reason);
        await delivery.AckAsync();
    }

    // Gone for good (a 5xx to RCPT TO, an unregistered push token): the recipient goes on the suppression list before the
    // message is dead-lettered. If the list cannot be written the dead letter still is: the message's record matters more
    // than the next one's saved attempt.
    private async Task SuppressIfGoneAsync(Send send, SendFailedException ex, CancellationToken cancellationToken)
    {
        if (send.Channel.GoneFor(send.Outgoing, ex) is not { } gone)
        {
            return;
        }

        try
        {
            await suppression.AddGoneAsync(gone, cancellationToken);
            ConsumerLog.HardBounceSuppressed(logger, send.NotificationId, ex.Message);
        }
        catch (Exception failure) when (!cancellationToken.IsCancellationRequested)
        {
            ConsumerLog.HardBounceNotRecorded(logger, send.NotificationId, failure);
        }

        faults.Reached("after-suppress");
    }

    // The end of a send in either mode: recorded 'sent' in the delivery log, acked, counted, with those two hops timed.
    private async Task LoggedAndAckedAsync(Delivery delivery, Send send, CancellationToken cancellationToken)
    {
        long logStarted = Stopwatch.GetTimestamp();
        var outcome = await outcomes.DeliveredAsync(send.Message, delivery.Attempt, cancellationToken);
        await log.RecordSentAsync(send.NotificationId, send.Outgoing.CreatedAt, delivery, outcome, cancellationToken);
        long ackStarted = Stopwatch.GetTimestamp();
        await delivery.AckAsync();
        Delivered(send.Outgoing, new DeliveryTimings(delivery.Source.Lane.Tag, logStarted, ackStarted));
    }

    private void Delivered(Outgoing outgoing, in DeliveryTimings timings)
    {
        var now = time.GetUtcNow();
        stats.AddDelivered(now - outgoing.CreatedAt, now, timings);
    }

    // How much is left of the Retry-After pause of the message's destination (zero when it is not paused).
    private TimeSpan PausedFor(IChannel channel, NotificationMessage message) =>
        channel.PausedUntil(message) is { } until && until - time.GetUtcNow() is var left && left > TimeSpan.Zero ? left : TimeSpan.Zero;

    // The send's destination turns sends away for now: its breaker is not closed (the failure may just have opened it), or
    // it answered with a Retry-After pause (this failure, or another handler's meanwhile).
    private bool IsTurnedAway(Send send) => send.Breaker.State != CircuitState.Closed || PausedFor(send.Channel, send.Message) > TimeSpan.Zero;

    // How long a message its destination turned away is parked: until the breaker's probe or the pause's end, whichever is later.
    private TimeSpan ParkFor(Send send) => Later(send.Breaker.RejectsFor, PausedFor(send.Channel, send.Message));

    private static TimeSpan Later(TimeSpan a, TimeSpan b) => a > b ? a : b;

    // Sure not to have reached the server as a message: refused or cut off before it was handed over, or never tried. At
    // least once also counts an error answer that leaves it maybe delivered (MaybeDelivered) as not sent: it sends again.
    private static bool IsNotSent(Exception ex) =>
        ex is SendFailedException { Kind: SendFailureKind.Transient } or BrokenCircuitException or TimeoutRejectedException;

    private static bool IsNotSentAtMostOnce(Exception ex) => IsNotSent(ex) && ex is not SendFailedException { MaybeDelivered: true };

    private static string Describe(Exception ex) => ex is SendFailedException failed
        ? failed.Describe()
        : $"send timed out: {ex.Message}";
}
