using Microsoft.Extensions.Logging;
using Notifications.Consumer.Pipeline;

namespace Notifications.Consumer.Telemetry;

/// <summary>Log messages of the consumer (EventIds 4000-4099).</summary>
internal static partial class ConsumerLog
{
    [LoggerMessage(4000, LogLevel.Information, "Consumer started: {Handlers} handlers, {Channels} channel(s) with prefetch {Prefetch}, {Mode}, sender {Sender}")]
    public static partial void Started(ILogger logger, int handlers, int channels, int prefetch, DeliveryMode mode, SenderKind sender);

    [LoggerMessage(4001, LogLevel.Information, "Consumer stopped: {Delivered} delivered, {Duplicates} duplicates skipped, {Retried} retried, {DeadLettered} dead-lettered, {Unknown} unknown outcome")]
    public static partial void Stopped(ILogger logger, long delivered, long duplicates, long retried, long deadLettered, long unknown);

    [LoggerMessage(4002, LogLevel.Warning, "Dead-lettered delivery {DeliveryTag}: {Reason}")]
    public static partial void DeadLettered(ILogger logger, ulong deliveryTag, string reason);

    [LoggerMessage(4003, LogLevel.Warning, "Handling delivery {DeliveryTag} failed; it will be retried")]
    public static partial void HandlerFailed(ILogger logger, ulong deliveryTag, Exception exception);

    [LoggerMessage(4004, LogLevel.Warning, "Notification {NotificationId}: maybe delivered (the answer was lost, or an error answer came after the message was handed over); at most once, so it is not sent again")]
    public static partial void OutcomeUnknown(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4005, LogLevel.Error, "Delivery {DeliveryTag} could not be retried or dead-lettered; returning it to the queue")]
    public static partial void GiveBack(ILogger logger, ulong deliveryTag, Exception exception);

    [LoggerMessage(4006, LogLevel.Error, "Delivery {DeliveryTag} could not be returned to the queue; the broker will redeliver it when the channel closes")]
    public static partial void RequeueFailed(ILogger logger, ulong deliveryTag, Exception exception);

    [LoggerMessage(4007, LogLevel.Warning, "Consumer channel closed; opening a new one")]
    public static partial void ChannelReopened(ILogger logger);

    [LoggerMessage(4025, LogLevel.Warning, "Consumer set-up was cut by the broker ({Reason}): the connection closed before the channels were open; set-up runs again once the connection recovers")]
    public static partial void SetUpCut(ILogger logger, string reason);

    [LoggerMessage(4010, LogLevel.Warning, "Notification {NotificationId}: not sent, and its copy could not be handed back to the broker; it is lost (at most once), its mark ('sending', or 'handing_back': a later copy of it may still take it over) is the trace")]
    public static partial void HandBackFailed(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4009, LogLevel.Warning, "Acks could not be written; the broker will redeliver those messages and the delivery log will recognise them")]
    public static partial void AckFailed(ILogger logger, Exception exception);

    [LoggerMessage(4008, LogLevel.Warning, "Shutdown timeout reached; cancelling {InFlight} in-flight handlers")]
    public static partial void ShutdownTimedOut(ILogger logger, int inFlight);

    [LoggerMessage(4011, LogLevel.Warning, "Relay circuit breaker opened: at least {FailureRatio:P0} of the sends in {SamplingDuration} failed, the last with: {Reason}. Consumers stop taking work; messages wait in the work queue without spending attempts; one is sent as a probe every {BreakDuration}")]
    public static partial void RelayBreakerOpened(ILogger logger, double failureRatio, TimeSpan samplingDuration, string reason, TimeSpan breakDuration);

    [LoggerMessage(4012, LogLevel.Information, "Relay circuit breaker closed after {OpenFor}: the probe send went through; consuming again")]
    public static partial void RelayBreakerClosed(ILogger logger, TimeSpan openFor);

    [LoggerMessage(4013, LogLevel.Debug, "Relay probe failed; the breaker stays open for another {BreakDuration}: {Reason}")]
    public static partial void RelayProbeFailed(ILogger logger, TimeSpan breakDuration, string reason);

    [LoggerMessage(4014, LogLevel.Warning, "Pausing, resuming or probing consumption for the relay breaker failed; trying again")]
    public static partial void RelayGateFailed(ILogger logger, Exception exception);

    [LoggerMessage(4015, LogLevel.Warning, "Notification {NotificationId}: its copy could not be put back into the work queue while the relay is down; the original goes back to the queue")]
    public static partial void ReturnFailed(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4018, LogLevel.Warning, "Notification {NotificationId}: its copy is queued but its 'handing_back' mark could not be released; the copy takes the mark over when it comes")]
    public static partial void MarkNotReleased(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4019, LogLevel.Warning, "Notification {NotificationId}: maybe delivered, and why could not be recorded on its 'sending' mark; the mark stays, its status says in_flight")]
    public static partial void MaybeSentNotRecorded(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4026, LogLevel.Warning, "Notification {NotificationId}: its failed attempt could not be recorded for its story; it is tried again all the same")]
    public static partial void FailedAttemptNotRecorded(ILogger logger, long notificationId, Exception exception);

    [LoggerMessage(4017, LogLevel.Warning, "Envelope {DeliveryTag}: its {Items} unsettled or parked item(s) could not be put back into the work queue or a delay queue before the consumer stopped; the envelope goes back whole and the delivery log sorts out its items")]
    public static partial void EnvelopeReturnFailed(ILogger logger, ulong deliveryTag, int items, Exception exception);

    [LoggerMessage(4016, LogLevel.Information, "Urgent lane: queue {Queue}, {Handlers} handlers of its own, prefetch {Prefetch}")]
    public static partial void UrgentLane(ILogger logger, string queue, int handlers, int prefetch);

    [LoggerMessage(4027, LogLevel.Information, "Consumer:Lanes is {Lanes}: this process consumes that lane only; other consumer processes must consume the other")]
    public static partial void OneLane(ILogger logger, ConsumerLanes lanes);
}
