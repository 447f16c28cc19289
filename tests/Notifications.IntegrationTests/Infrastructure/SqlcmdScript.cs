using System.Text.RegularExpressions;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Reads db/sqlserver/*.sql the way sqlcmd does: <c>$(Name)</c> variables substituted, batches split on
/// <c>GO</c> lines. Shared by the migrator here and the T-SQL parser tests (linked into the unit tests),
/// so what is parsed is exactly what is applied.
/// </summary>
internal static partial class SqlcmdScript
{
    /// <summary>The scripts in <paramref name="directory"/>, in the order they apply (NNN_ prefix).</summary>
    public static IReadOnlyList<string> Files(string directory) =>
        Directory.GetFiles(directory, "*.sql").Order(StringComparer.Ordinal).ToList();

    /// <summary>The batches of <paramref name="script"/> with every variable substituted; an unknown variable throws.</summary>
    public static IReadOnlyList<string> Batches(string script, IReadOnlyDictionary<string, string> variables)
    {
        string substituted = Variable().Replace(script, m =>
            variables.TryGetValue(m.Groups[1].Value, out var value)
                ? value
                : throw new ArgumentException($"sqlcmd variable $({m.Groups[1].Value}) has no value.", nameof(variables)));
        return GoLine().Split(substituted).Where(b => !string.IsNullOrWhiteSpace(b)).Select(b => b.Trim()).ToList();
    }

    /// <summary>The batches of <paramref name="script"/> with <c>$(Schema)</c> set to <paramref name="schema"/>.</summary>
    public static IReadOnlyList<string> Batches(string script, string schema) =>
        Batches(script, new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase) { ["Schema"] = schema });

    // sqlcmd variable names are case-insensitive.
    [GeneratedRegex(@"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")]
    private static partial Regex Variable();

    // GO alone on its line (a trailing comment allowed); GO n (repeat) is not used by our scripts.
    [GeneratedRegex(@"^[ \t]*GO[ \t]*(?:--[^\r\n]*)?\r?$", RegexOptions.Multiline | RegexOptions.IgnoreCase)]
    private static partial Regex GoLine();
}
