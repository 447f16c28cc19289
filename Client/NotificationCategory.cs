using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>What a notification is about, for the subscribers' preferences (docs/preferences.md).</summary>
public sealed partial record NewNotification
{
    /// <summary>The longest <see cref="Category"/>, in characters.</summary>
    public const int MaxCategoryLength = AudienceRules.MaxCategoryNameLength;

    /// <summary>
    /// Optional, any channel: what the notification is about (<c>security</c>, <c>orders</c>, <c>marketing</c>; 1-64 lower-case
    /// letters, digits, <c>.</c> <c>_</c> <c>-</c>, starting with a letter or digit). The consumer does not send it to an
    /// address whose subscriber opted out of the category on this channel (<see cref="ISubscriberRegistry.SetPreferenceAsync"/>,
    /// or the category's default is off); it records it <c>opted_out</c> instead. A critical category is always sent.
    /// A category no operator has made yet is sent (nobody can have opted out of it). Null: no category, never held back.
    /// </summary>
    public string? Category { get; init; }

    /// <exception cref="ArgumentException">The category is not a category name; the parameter name is <c>Category</c>.</exception>
    internal void CheckCategory()
    {
        if (Category is not null && AudienceRules.CategoryName(Category) is { } error)
        {
            throw new ArgumentException($"{nameof(Category)} refused, {error}.", nameof(Category));
        }
    }
}
