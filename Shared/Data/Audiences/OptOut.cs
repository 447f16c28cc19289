namespace Notifications.Shared.Data.Audiences;

/// <summary>A subscriber who does not get a category on a channel (<see cref="IPreferenceStore.FindOptOutAsync"/>).</summary>
/// <param name="SubscriberId">The subscriber, by the app's own id (subscriber.external_id).</param>
/// <param name="ByPreference">True: the subscriber's own preference says off; false: they have none and the category's default says off.</param>
public sealed record OptOut(string SubscriberId, bool ByPreference)
{
    /// <summary>The delivery log's reason: who, and which rule.</summary>
    public string Reason(string category, string channel) => ByPreference
        ? $"subscriber '{SubscriberId}' opted out of category '{category}' on {channel}"
        : $"category '{category}' is off by default on {channel} and subscriber '{SubscriberId}' has not opted in";
}
