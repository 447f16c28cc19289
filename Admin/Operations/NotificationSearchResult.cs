using Notifications.Shared.Data.Operations;

namespace Notifications.Admin.Operations;

/// <summary>
/// A page of notifications a search found, highest id first; <see cref="Next"/> is the cursor of the next page (null: the last).
/// <see cref="Message"/> says why there is nothing, in words for the operator (refused, or no match).
/// </summary>
public sealed record NotificationSearchResult(IReadOnlyList<NotificationHit> Hits, long? Next, string? Message)
{
    public static NotificationSearchResult None(string message) => new([], null, message);
}
