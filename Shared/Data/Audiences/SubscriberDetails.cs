namespace Notifications.Shared.Data.Audiences;

/// <summary>One subscriber as <c>scripts/admin subscribers show</c> prints it.</summary>
/// <param name="Id">The app's user id.</param>
/// <param name="Locale">The locale its notifications are rendered in.</param>
/// <param name="TimeZone">Its IANA time zone, or null.</param>
/// <param name="CreatedAt">When it was first upserted (UTC).</param>
/// <param name="UpdatedAt">When it was last upserted (UTC).</param>
/// <param name="ContactPoints">Its addresses and devices, by channel and address.</param>
/// <param name="Topics">The topics it is subscribed to, by name.</param>
/// <param name="Preferences">Its own choices, by category and channel.</param>
public sealed record SubscriberDetails(
    string Id,
    string Locale,
    string? TimeZone,
    DateTime CreatedAt,
    DateTime UpdatedAt,
    IReadOnlyList<ContactPointEntry> ContactPoints,
    IReadOnlyList<string> Topics,
    IReadOnlyList<PreferenceEntry> Preferences);
