using Notifications.Shared.Data;

namespace Notifications.Admin;

/// <summary>One page of a suppression search, and the key the next page starts after (null: this is the last).</summary>
internal sealed record SuppressionPage(IReadOnlyList<SuppressionEntry> Entries, string? NextAfter)
{
    public static SuppressionPage Empty { get; } = new([], null);
}
