using System.Data.Common;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Live;

/// <summary>
/// Writes a live notification pending for its subscriber, then publishes its frame to the live exchange under the subscriber
/// (<see cref="Settling.OutboundPublisher.PublishLiveAsync"/>). Thread-safe: one serves every handler. The row is written
/// first, so a gateway that receives the frame finds it to ack, and an app that connects later finds it pending. A row
/// pending already (a redelivered message) is published again: at least once may send twice, the app de-duplicates by id.
/// The rows of concurrent handlers are written together (<see cref="LivePendingWriter"/>).
/// </summary>
internal sealed class LiveSender(LivePendingWriter pending, ILiveBroadcastStore broadcasts, LiveRoute route) : IChannelSender
{
    public async Task SendAsync(Outgoing outgoing, CancellationToken cancellationToken)
    {
        var live = (LiveNotification)outgoing;
        if (live.Broadcast is { } broadcast)
        {
            await BroadcastAsync(live, broadcast, cancellationToken);
            return;
        }

        try
        {
            await pending.AddAsync(live.Row, cancellationToken);
        }
        catch (DbException ex)
        {
            throw new SendFailedException(SendFailureKind.Transient, $"live: could not write the pending notification: {ex.Message}", ex);
        }

        // From here it is delivered as far as the fleet goes: the row waits for an app, whether or not the frame reaches one now.
        await PublishAsync(live.Row.Subscriber, live, live.Row.AtMostOnce, cancellationToken);
    }

    // One row for the topic, then one frame for every gateway node (docs/live.md#broadcasts-to-a-topic). A topic that does not
    // exist fails the notification for good: dead-lettered with the reason, as an unknown topic is recorded by the fan-out.
    private async Task BroadcastAsync(LiveNotification live, LiveBroadcast broadcast, CancellationToken cancellationToken)
    {
        bool added;
        try
        {
            added = await broadcasts.AddAsync(broadcast, cancellationToken);
        }
        catch (DbException ex)
        {
            throw new SendFailedException(SendFailureKind.Transient, $"live: could not write the broadcast: {ex.Message}", ex);
        }

        if (!added)
        {
            throw new SendFailedException(SendFailureKind.Permanent, $"live: no topic named '{broadcast.Topic}'");
        }

        await PublishAsync(LiveFrames.BroadcastRoutingKey, live, broadcast.AtMostOnce, cancellationToken);
    }

    // The frame to the live exchange under routingKey. One that does not reach the broker (no connection, or it failed) is
    // not an error: the row is written, and the apps it is for get it at their next connect.
    private async Task PublishAsync(string routingKey, LiveNotification live, bool atMostOnce, CancellationToken cancellationToken)
    {
        if (route.Publisher is not { } publisher)
        {
            return;
        }

        try
        {
            await publisher.PublishLiveAsync(routingKey, live.NotificationId, live.Frame, atMostOnce, cancellationToken);
        }
        catch (IOException)
        {
            // The frame did not reach the broker: the row waits.
        }
    }

    // Shared by every handler: nothing of its own to close.
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
