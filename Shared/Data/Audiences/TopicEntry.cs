namespace Notifications.Shared.Data.Audiences;

/// <summary>A topic with its number of subscriptions.</summary>
public sealed record TopicEntry
{
    /// <summary>The topic's name.</summary>
    public string Name { get; init; } = "";

    /// <summary>How many subscribers it has.</summary>
    public long Subscribers { get; init; }

    /// <summary>When its first subscriber made it (UTC).</summary>
    public DateTime CreatedAt { get; init; }

    /// <summary>Whether it has more than <see cref="IAudienceStore.SubscriberCountCap"/> subscribers (the count is not exact).</summary>
    public bool IsMore => Subscribers > IAudienceStore.SubscriberCountCap;
}
