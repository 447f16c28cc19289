using System.Globalization;

namespace Notifications.Admin.Migrations;

/// <summary>How <c>migrate --list</c> and <c>migrate --dry-run</c> print a schema's migrations.</summary>
internal static class MigrationOutput
{
    public static async Task ListAsync(TextWriter output, IReadOnlyList<MigrationState> states)
    {
        foreach (var state in states)
        {
            string at = state.AppliedAt is { } applied ? applied.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) : "";
            await output.WriteLineAsync($"  {Label(state.Status),-8} {at,-19}  {state.Name}");
        }

        await output.WriteLineAsync(string.Join(", ", Enum.GetValues<MigrationStatus>()
            .Select(status => (status, count: states.Count(s => s.Status == status)))
            .Where(c => c.count > 0 || c.status is MigrationStatus.Applied or MigrationStatus.Pending)
            .Select(c => $"{c.count} {Label(c.status)}")) + ".");
    }

    public static async Task DryRunAsync(TextWriter output, IReadOnlyList<MigrationState> states)
    {
        var pending = states.Where(s => s.Status is MigrationStatus.Pending or MigrationStatus.Changed).ToList();
        foreach (var state in pending)
        {
            await output.WriteLineAsync($"  would apply  {state.Name}{(state.Status == MigrationStatus.Changed ? "  (changed since it ran)" : "")}");
        }

        await output.WriteLineAsync(pending.Count == 0
            ? "Up to date: nothing would be applied. Nothing was changed."
            : $"{pending.Count} migration(s) would be applied, in this order. Nothing was changed.");
    }

    private static string Label(MigrationStatus status) => status switch
    {
        MigrationStatus.Applied => "applied",
        MigrationStatus.Pending => "pending",
        MigrationStatus.Changed => "changed",
        _ => "unknown",
    };
}
