using System.Text.RegularExpressions;

namespace Notifications.UnitTests.SqlServer;

/// <summary>
/// Reads a sqlcmd script the way sqlcmd does: <c>$(Name)</c> variables substituted, batches split on <c>GO</c> lines.
/// For deploy/sqlserver/create-login.sql, which deploy/sqlserver/create-logins pipes into sqlcmd; the migrations are
/// read as notifications-admin migrate reads them (<see cref="TSqlStatements"/>).
/// </summary>
internal static partial class SqlcmdScript
{
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
