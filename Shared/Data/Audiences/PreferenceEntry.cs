namespace Notifications.Shared.Data.Audiences;

/// <summary>A subscriber's choice for one category on one channel.</summary>
public sealed record PreferenceEntry
{
    /// <summary>The category's name.</summary>
    public string Category { get; init; } = "";

    /// <summary>email or push.</summary>
    public string Channel { get; init; } = "";

    /// <summary>False: opted out.</summary>
    public bool Enabled { get; init; }
}
