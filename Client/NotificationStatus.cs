namespace Notifications.Client;

/// <summary>
/// One notification's status, as the schema's <c>notification_status(id)</c> function answers it: the answer of
/// <see cref="INotificationOutbox.GetStatusAsync"/> and <see cref="NotificationOutbox.GetStatusAsync"/>.
/// </summary>
/// <param name="NotificationId">The id asked about.</param>
/// <param name="State">Where the notification is.</param>
/// <param name="StateName">The state as the database names it (<c>waiting</c>, <c>in_flight</c>, <c>sent</c>, ...).</param>
/// <param name="At">
/// Waiting: inserted; in flight: marked sending (null when inferred); sent, suppressed, maybe sent: recorded; dead-lettered, rejected: when.
/// </param>
/// <param name="Attempts">Sent: the attempt that succeeded; maybe sent: the attempt that sent it; dead-lettered: the attempts it had.</param>
/// <param name="NotBefore">Waiting: the scheduled instant, if any.</param>
/// <param name="Reason">Dead-lettered, rejected: why; maybe sent: what left the outcome unknown.</param>
/// <param name="Detail">A sentence for people.</param>
public sealed record NotificationStatus(
    long NotificationId,
    NotificationState State,
    string StateName,
    DateTimeOffset? At,
    int? Attempts,
    DateTimeOffset? NotBefore,
    string? Reason,
    string Detail)
{
    /// <summary>The <see cref="NotificationState"/> of a state the database names; <see cref="NotificationState.Other"/> for one this client does not know.</summary>
    public static NotificationState StateOf(string stateName) => stateName switch
    {
        "unknown" => NotificationState.Unknown,
        "waiting" => NotificationState.Waiting,
        "in_flight" => NotificationState.InFlight,
        "sent" => NotificationState.Sent,
        "maybe_sent" => NotificationState.MaybeSent,
        "suppressed" => NotificationState.Suppressed,
        "opted_out" => NotificationState.OptedOut,
        "live_acked" => NotificationState.LiveAcked,
        "bounced" => NotificationState.Bounced,
        "complained" => NotificationState.Complained,
        "dead_lettered" => NotificationState.DeadLettered,
        "rejected" => NotificationState.Rejected,
        "fanned_out" => NotificationState.FannedOut,
        "no_such_audience" => NotificationState.NoSuchAudience,
        _ => NotificationState.Other,
    };
}
