using System.Text.RegularExpressions;
using DbUp.Engine;

namespace Notifications.Admin.Migrations;

/// <summary>
/// sqlcmd's scripting variables, as <c>sqlcmd -v Schema=notifications -i FILE</c> substitutes them: <c>$(Name)</c>
/// replaced by its value everywhere, names case-insensitive. The files stay appliable with sqlcmd by hand.
/// </summary>
internal sealed partial class SqlcmdVariables(IReadOnlyDictionary<string, string> variables) : IScriptPreprocessor
{
    private readonly Dictionary<string, string> _variables = new(variables, StringComparer.OrdinalIgnoreCase);

    public string Process(string contents) => Variable().Replace(contents, match =>
        _variables.TryGetValue(match.Groups[1].Value, out var value)
            ? value
            : throw new InvalidOperationException($"sqlcmd variable $({match.Groups[1].Value}) has no value"));

    [GeneratedRegex(@"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")]
    private static partial Regex Variable();
}
