namespace Notifications.Shared.Data.Audiences;

/// <summary>What the erasure of a subscriber removed with it (<see cref="IAudienceStore.DeleteSubscriberAsync"/>).</summary>
public sealed record SubscriberErasure
{
    /// <summary>Its email addresses and push devices.</summary>
    public int ContactPoints { get; init; }

    /// <summary>Its topic subscriptions.</summary>
    public int Subscriptions { get; init; }

    /// <summary>Its preferences.</summary>
    public int Preferences { get; init; }
}
