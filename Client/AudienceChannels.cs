namespace Notifications.Client;

/// <summary>Which channels the deliveries of a notification to a subscriber or a topic may use (docs/fan-out.md).</summary>
[Flags]
public enum AudienceChannels
{
    /// <summary>Every live email address of each subscriber.</summary>
    Email = 1,

    /// <summary>Every live push device of each subscriber.</summary>
    Push = 2,

    /// <summary>
    /// The running apps of each subscriber, through the gateway: one live delivery a subscriber, pending until an app acks it
    /// or it expires (docs/live.md). To a topic with live alone, one broadcast for the whole topic under the notification's
    /// own id, which each subscriber's apps ack (docs/live.md#broadcasts-to-a-topic).
    /// </summary>
    Live = 4,

    /// <summary>
    /// Live first; then each push device of the subscriber only if no app acked the live delivery within
    /// <c>Live:PushAfter</c> (2 s): the push copy carries the live delivery's id (data <c>notification_id</c>), so an app that
    /// got both shows it once. Not with <see cref="Push"/> or <see cref="Live"/> (it is both).
    /// </summary>
    LiveThenPush = 8,
}
