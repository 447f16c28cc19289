using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Live;

/// <summary>
/// A live notification made ready (<see cref="LiveChannel.PrepareAsync"/>): the pending row to write, and the frame the
/// gateway forwards to the subscriber's apps as it is; or, to a topic, the broadcast row instead
/// (docs/live.md#broadcasts-to-a-topic).
/// </summary>
internal sealed record LiveNotification(long NotificationId, DateTimeOffset CreatedAt, LivePending Row, byte[] Frame, LiveBroadcast? Broadcast = null)
    : Outgoing(NotificationId, CreatedAt);
