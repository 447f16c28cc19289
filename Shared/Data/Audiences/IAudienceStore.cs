namespace Notifications.Shared.Data.Audiences;

/// <summary>
/// The audience registry (db/*/025_audiences.sql; docs/audiences.md) as the admin tool and the workers read it, one
/// implementation per SQL dialect. Apps write subscribers, contact points, subscriptions and preferences through the client
/// package (ISubscriberRegistry); categories and their defaults are the operators'. Names and ids come checked
/// (AudienceRules).
/// </summary>
public interface IAudienceStore
{
    /// <summary>
    /// Creates or replaces category <paramref name="name"/>: whether it is critical, its description, and its per-channel
    /// defaults (exactly <paramref name="defaults"/>; a channel not named gets it). Preferences of its subscribers stay.
    /// </summary>
    Task PutCategoryAsync(string name, bool critical, string? description, IReadOnlyDictionary<string, bool> defaults, CancellationToken cancellationToken);

    /// <summary>Every category with its defaults, by name.</summary>
    Task<IReadOnlyList<AudienceCategory>> ListCategoriesAsync(CancellationToken cancellationToken);

    /// <summary>The subscriber of the app's id <paramref name="externalId"/>, with its contact points, topics and preferences; null if none.</summary>
    Task<SubscriberDetails?> FindSubscriberAsync(string externalId, CancellationToken cancellationToken);

    /// <summary>
    /// A topic's count is exact up to this; above it the count stops at one more (<see cref="TopicEntry.IsMore"/>): a page of
    /// topics never counts a million-subscriber topic exactly.
    /// </summary>
    public const int SubscriberCountCap = 10_000;

    /// <summary>
    /// The topics by name after <paramref name="after"/> (keyset on the name's unique index; null: from the first), at most
    /// <paramref name="limit"/>, each with its number of subscriptions up to <see cref="SubscriberCountCap"/> + 1.
    /// </summary>
    Task<IReadOnlyList<TopicEntry>> ListTopicsAsync(string? after, int limit, CancellationToken cancellationToken);

    /// <summary>The ids of the subscribers with a contact point (email address or push recipient) of exactly <paramref name="address"/>, by id, at most <paramref name="limit"/>.</summary>
    Task<IReadOnlyList<string>> FindSubscribersByAddressAsync(string address, int limit, CancellationToken cancellationToken);

    /// <summary>
    /// An operator opts subscriber <paramref name="externalId"/> in or out of <paramref name="category"/> on <paramref name="channel"/>
    /// for the person (a support request): the row the app's <c>SetPreferenceAsync</c> writes, under the same rule (an
    /// opt-out of a critical category is refused). One statement.
    /// </summary>
    Task<PreferenceChange> SetPreferenceAsync(string externalId, string category, string channel, bool enabled, CancellationToken cancellationToken);

    /// <summary>
    /// Erases subscriber <paramref name="externalId"/>: its row and, by the foreign keys' cascade, its contact points,
    /// subscriptions and preferences. What went with it; null when there is no such subscriber. One statement.
    /// </summary>
    Task<SubscriberErasure?> DeleteSubscriberAsync(string externalId, CancellationToken cancellationToken);

    /// <summary>
    /// The deliveries of the fan-out of notification <paramref name="parentId"/>: the tally by channel and state, and the first
    /// <paramref name="limit"/> in subscriber order (a subscriber erased since shows no id). Both empty when it has none.
    /// </summary>
    Task<FanOutDeliveryReport> ListDeliveriesAsync(long parentId, int limit, CancellationToken cancellationToken);
}
