namespace Notifications.Shared.Data;

/// <summary>
/// One notification's status, as the database function <c>notification_status(id)</c> answers it
/// (<c>db/*/010_notification_status.sql</c>).
/// </summary>
/// <param name="NotificationId">The id asked about.</param>
/// <param name="State">One of the <see cref="States"/>.</param>
/// <param name="At">
/// waiting: inserted; in_flight: marked sending (null when inferred); sent, suppressed, opted_out, maybe_sent: recorded; dead_lettered, rejected: when.
/// </param>
/// <param name="Attempts">sent: the attempt that succeeded; maybe_sent: the attempt that sent it; dead_lettered: the attempts it had.</param>
/// <param name="NotBefore">waiting: the scheduled instant, if any.</param>
/// <param name="Reason">dead_lettered, rejected: why; maybe_sent: what left the outcome unknown; opted_out: who opted out, and how; live_acked: which live delivery.</param>
/// <param name="Detail">A sentence for people.</param>
public sealed record NotificationStatus(
    long NotificationId, string State, DateTimeOffset? At, int? Attempts, DateTimeOffset? NotBefore, string? Reason, string Detail)
{
    /// <summary>Every state the function answers.</summary>
    public static readonly IReadOnlyList<string> States = ["waiting", "in_flight", "sent", "maybe_sent", "suppressed", "opted_out", "dead_lettered", "rejected", "unknown",
        "fanned_out", "no_such_audience", "live_acked", "bounced", "complained"];

    /// <summary>Whether the database knows nothing of this id.</summary>
    public bool IsUnknown => State == "unknown";
}

/// <summary>Reads <see cref="NotificationStatus"/> through the schema's <c>notification_status</c> function.</summary>
public interface INotificationStatusStore
{
    /// <summary>The status of notification <paramref name="id"/> (state <c>unknown</c> if the database knows nothing of it).</summary>
    Task<NotificationStatus> GetAsync(long id, CancellationToken cancellationToken);
}
