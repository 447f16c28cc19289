namespace Notifications.Shared.Data.Audiences;

/// <summary>A category: what a notification is about, whether it can be opted out of, and its per-channel defaults.</summary>
/// <param name="Name">The category's name (security, orders, marketing).</param>
/// <param name="Critical">True: no subscriber can opt out of it (the client refuses; the fan-out ignores preferences).</param>
/// <param name="Description">What it is for, as operators wrote it.</param>
/// <param name="Defaults">Channel to whether a subscriber without a preference gets it; a channel absent here gets it.</param>
/// <param name="UpdatedAt">When it was last put (UTC).</param>
public sealed record AudienceCategory(string Name, bool Critical, string? Description, IReadOnlyDictionary<string, bool> Defaults, DateTime UpdatedAt);
