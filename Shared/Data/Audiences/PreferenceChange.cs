namespace Notifications.Shared.Data.Audiences;

/// <summary>What an operator's opt-in or opt-out (<see cref="IAudienceStore.SetPreferenceAsync"/>) did.</summary>
public enum PreferenceChange
{
    /// <summary>The preference row is written as asked.</summary>
    Written,

    /// <summary>No subscriber has that id: nothing written.</summary>
    NoSubscriber,

    /// <summary>No category has that name: nothing written.</summary>
    NoCategory,

    /// <summary>An opt-out of a critical category: refused, nothing written.</summary>
    Critical,
}
