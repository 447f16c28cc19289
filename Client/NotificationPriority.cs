namespace Notifications.Client;

/// <summary>
/// The lane a notification travels in (column <c>outbox.priority</c>). Urgent rows are claimed before all
/// others and have their own queue and handlers; normal rows are claimed before bulk rows.
/// </summary>
public enum NotificationPriority
{
    /// <summary>The default: <c>'normal'</c>.</summary>
    Normal = 0,

    /// <summary><c>'urgent'</c>: password resets, one-time codes.</summary>
    Urgent = 1,

    /// <summary><c>'bulk'</c>: newsletters. Claimed only when no normal row is waiting.</summary>
    Bulk = 2,
}
