namespace Notifications.Shared.Data.Operations;

/// <summary>Which dead letters a bulk job takes: a whole group (its reason class) or the dead letters of some notification ids.</summary>
public sealed record DeadLetterSelection
{
    private DeadLetterSelection(string? reasonClass, IReadOnlyList<long>? notificationIds)
    {
        ReasonClass = reasonClass;
        NotificationIds = notificationIds;
    }

    /// <summary>The group's reason class, or null for a list of ids.</summary>
    public string? ReasonClass { get; }

    /// <summary>The notification ids, or null for a group.</summary>
    public IReadOnlyList<long>? NotificationIds { get; }

    /// <summary>Every dead letter of the group of <paramref name="reasonClass"/>.</summary>
    public static DeadLetterSelection Group(string reasonClass) => new(reasonClass, null);

    /// <summary>The dead letters of <paramref name="notificationIds"/>.</summary>
    public static DeadLetterSelection Ids(IReadOnlyList<long> notificationIds) => new(null, notificationIds);

    /// <summary>For people: "group '...'" or "N notification id(s)".</summary>
    public override string ToString() => ReasonClass is { } group ? $"group '{group}'" : $"{NotificationIds!.Count} notification id(s)";
}
