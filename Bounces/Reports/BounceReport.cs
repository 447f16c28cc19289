namespace Notifications.Bounces.Reports;

/// <summary>
/// One inbound message, read: the notification it reports on and what it says of each recipient, or why it is dropped
/// (<see cref="DropReason"/>, one of <see cref="DropReasons"/>; then nothing changes).
/// </summary>
internal sealed record BounceReport(long? NotificationId, IReadOnlyList<RecipientOutcome> Outcomes, string? DropReason)
{
    public static BounceReport Dropped(string reason, long? notificationId = null) => new(notificationId, [], reason);

    public bool IsDropped => DropReason is not null;
}
