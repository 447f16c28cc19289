namespace Notifications.Shared.Data;

/// <summary>Which priorities a claim takes, in order.</summary>
public static class OutboxLanes
{
    /// <summary>Every row: urgent, then normal, then bulk.</summary>
    public static readonly IReadOnlyList<NotificationPriority> All = [NotificationPriority.Urgent, NotificationPriority.Normal, NotificationPriority.Bulk];

    /// <summary>The urgent lane's claim.</summary>
    public static readonly IReadOnlyList<NotificationPriority> Urgent = [NotificationPriority.Urgent];

    /// <summary>The standard lane's claim: normal before bulk.</summary>
    public static readonly IReadOnlyList<NotificationPriority> Standard = [NotificationPriority.Normal, NotificationPriority.Bulk];
}
