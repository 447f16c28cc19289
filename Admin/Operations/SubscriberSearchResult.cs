using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin.Operations;

/// <summary>What <see cref="SubscriberLookup"/> found: one subscriber, several ids sharing an address, or nothing and why.</summary>
/// <param name="Subscriber">The one subscriber found, with its contact points, topics and preferences.</param>
/// <param name="Pending">Its live notifications still pending, up to <see cref="SubscriberLookup.PendingCap"/> + 1.</param>
/// <param name="Matches">The ids of the subscribers sharing the address, when it was more than one.</param>
/// <param name="MoreMatches">Whether more than <see cref="SubscriberLookup.MaxMatches"/> share it.</param>
/// <param name="Message">Why nothing was found.</param>
internal sealed record SubscriberSearchResult(
    SubscriberDetails? Subscriber, int Pending, IReadOnlyList<string> Matches, bool MoreMatches, string? Message)
{
    public static SubscriberSearchResult NotFound(string why) => new(null, 0, [], false, "not found: " + why);
}
