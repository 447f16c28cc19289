namespace Notifications.Client;

/// <summary>Where a notification is, as the schema's <c>notification_status(id)</c> function answers (docs/operations.md).</summary>
public enum NotificationState
{
    /// <summary><c>unknown</c>: the outbox never issued this id, or the retention cleanup removed its records.</summary>
    Unknown = 0,

    /// <summary><c>waiting</c>: in the outbox, not claimed yet (or scheduled: <see cref="NotificationStatus.NotBefore"/>).</summary>
    Waiting,

    /// <summary><c>in_flight</c>: claimed and handed to the broker, no outcome yet (being delivered, or waiting for a retry).</summary>
    InFlight,

    /// <summary><c>sent</c>: the receiving server (SMTP server, webhook endpoint, push service) accepted it.</summary>
    Sent,

    /// <summary><c>maybe_sent</c>: at most once, and the outcome of the one send is unknown; it is not sent again.</summary>
    MaybeSent,

    /// <summary><c>suppressed</c>: not sent, the recipient is on the suppression list.</summary>
    Suppressed,

    /// <summary><c>dead_lettered</c>: given up and moved to the dead-letter queue (<see cref="NotificationStatus.Reason"/> says why).</summary>
    DeadLettered,

    /// <summary><c>rejected</c>: refused by the producer, never published, never sent.</summary>
    Rejected,

    /// <summary>A state this version of the client does not name (a newer database): <see cref="NotificationStatus.StateName"/> says which.</summary>
    Other,

    /// <summary>
    /// <c>opted_out</c>: not sent, a subscriber of the recipient opted out of its category on its channel
    /// (<see cref="NotificationStatus.Reason"/> says who). Last, so the values above keep their numbers.
    /// </summary>
    OptedOut,

    /// <summary>
    /// <c>fanned_out</c>: a notification for a subscriber or a topic whose every delivery was handed to the broker; each has
    /// its own id and status (<see cref="NotificationStatus.Detail"/> counts them; docs/fan-out.md).
    /// </summary>
    FannedOut,

    /// <summary><c>no_such_audience</c>: a notification for a subscriber or a topic that did not exist when it was sent; nothing was sent.</summary>
    NoSuchAudience,

    /// <summary>
    /// <c>live_acked</c>: not sent, it was the push copy of a live delivery (<see cref="AudienceChannels.LiveThenPush"/>) that an
    /// app acked in time (<see cref="NotificationStatus.Reason"/> names it; docs/live.md).
    /// </summary>
    LiveAcked,

    /// <summary>
    /// <c>bounced</c>: sent, then the recipient's server reported it failed for good (a DSN, RFC 3464):
    /// <see cref="NotificationStatus.Reason"/> has its status and words; the address is suppressed (docs/bounces.md).
    /// </summary>
    Bounced,

    /// <summary><c>complained</c>: sent, then the recipient reported it as spam (an ARF report, RFC 5965; docs/bounces.md).</summary>
    Complained,
}
