using Notifications.Shared.Data;

namespace Notifications.Admin;

/// <summary>
/// The suppression list's operations as both the command line (<see cref="SuppressionCommands"/>) and the operators' console
/// run them: one implementation, two front ends.
/// </summary>
internal static class SuppressionOperations
{
    /// <summary>The entries a search shows at a time (a bounded page; the next one starts after its last key).</summary>
    public const int PageSize = 50;

    /// <summary>
    /// Takes <paramref name="key"/> (normalized: <see cref="SuppressionKeys.TryNormalize"/>) off the list, the
    /// <paramref name="note"/> kept on the removed entry; an <see cref="AdminException"/> if it was not on it. What happened, in words.
    /// </summary>
    public static async Task<string> RemoveAsync(AdminContext admin, string key, string? note, CancellationToken cancellationToken)
    {
        string? why = string.IsNullOrWhiteSpace(note) ? null : note.Trim();
        if (!await admin.DatabaseAsync(() => admin.Suppression.RemoveAsync(key, why, cancellationToken)))
        {
            throw new AdminException($"{key} is not on the suppression list", ExitCodes.Failed);
        }

        return $"Removed {key} from the suppression list{(why is null ? "" : $" ({why})")}.";
    }

    /// <summary>
    /// The entries in force whose key is <paramref name="text"/> (<paramref name="exact"/>) or starts with it, a page after
    /// <paramref name="after"/>. Text no key can match (longer than a key, control characters, not an address for an exact
    /// search) finds nothing without a query.
    /// </summary>
    public static async Task<SuppressionPage> SearchAsync(
        AdminContext admin, string? text, bool exact, string? after, CancellationToken cancellationToken)
    {
        string typed = (text ?? "").Trim();
        if (typed.Length > SuppressionKeys.MaxLength || typed.Any(char.IsControl) || (after is { } a && (a.Length > SuppressionKeys.MaxLength || a.Any(char.IsControl))))
        {
            return SuppressionPage.Empty;
        }

        if (exact)
        {
            return SuppressionKeys.TryNormalize(typed, out _) is { } key
                ? new SuppressionPage(await admin.DatabaseAsync(() => admin.Suppression.FindAsync([key], cancellationToken)), null)
                : SuppressionPage.Empty;
        }

        // One more than a page: whether there is a next one, without counting.
        string prefix = SuppressionKeys.ForRecipient(typed);
        var entries = await admin.DatabaseAsync(() => admin.Suppression.SearchAsync(prefix, after, PageSize + 1, cancellationToken));
        return entries.Count > PageSize
            ? new SuppressionPage(entries.Take(PageSize).ToList(), entries[PageSize - 1].Address)
            : new SuppressionPage(entries, null);
    }
}
