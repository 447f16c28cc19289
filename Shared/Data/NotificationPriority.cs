namespace Notifications.Shared.Data;

/// <summary>
/// The lane a notification travels in (column <c>outbox.priority</c>). Urgent rows are claimed before all
/// others and are published to their own queue with their own consumer handlers; normal rows are claimed
/// before bulk rows.
/// </summary>
public enum NotificationPriority
{
    /// <summary>The default: <c>'normal'</c>.</summary>
    Normal = 0,

    /// <summary><c>'urgent'</c>: password resets, one-time codes. Own claim loop, own queue, own handlers.</summary>
    Urgent = 1,

    /// <summary><c>'bulk'</c>: newsletters. Claimed only when no normal row is waiting.</summary>
    Bulk = 2,
}

/// <summary>The column values of <see cref="NotificationPriority"/>.</summary>
public static class NotificationPriorities
{
    /// <summary>The column value, as the check constraint <c>outbox_priority_known</c> allows it.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not one of the three defined values.</exception>
    public static string ToColumn(this NotificationPriority priority) => priority switch
    {
        NotificationPriority.Urgent => "urgent",
        NotificationPriority.Normal => "normal",
        NotificationPriority.Bulk => "bulk",
        _ => throw new ArgumentOutOfRangeException(
            nameof(priority), priority, "The priority must be Urgent, Normal or Bulk (column values 'urgent', 'normal', 'bulk')."),
    };
}
