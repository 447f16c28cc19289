namespace Notifications.Shared.Data.Audiences;

/// <summary>The row an operator's preference statement answers (both dialects), read as a <see cref="PreferenceChange"/>.</summary>
internal sealed record PreferenceAnswer
{
    public bool HasSubscriber { get; init; }

    /// <summary>Null: no such category.</summary>
    public bool? Critical { get; init; }

    public bool Written { get; init; }

    public PreferenceChange Change => (HasSubscriber, Critical, Written) switch
    {
        (false, _, _) => PreferenceChange.NoSubscriber,
        (_, null, _) => PreferenceChange.NoCategory,
        (_, _, true) => PreferenceChange.Written,
        _ => PreferenceChange.Critical,
    };
}
