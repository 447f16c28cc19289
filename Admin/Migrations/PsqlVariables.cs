using System.Text.RegularExpressions;
using DbUp.Engine;

namespace Notifications.Admin.Migrations;

/// <summary>
/// psql's variable interpolation, as <c>psql -v schema=notifications -f FILE</c> does it: <c>:"name"</c> becomes a quoted
/// identifier, <c>:'name'</c> a quoted literal. The files stay appliable with psql by hand, and DbUp's own <c>$name$</c>
/// variables stay off: they would take a PostgreSQL dollar quote such as <c>$fn$</c> for a variable.
/// </summary>
internal sealed partial class PsqlVariables(IReadOnlyDictionary<string, string> variables) : IScriptPreprocessor
{
    public string Process(string contents) => Variable().Replace(contents, match =>
    {
        string name = match.Groups["name"].Value;
        if (!variables.TryGetValue(name, out var value))
        {
            throw new InvalidOperationException($"psql variable :{match.Groups["quote"].Value}{name}{match.Groups["quote"].Value} has no value");
        }

        string quote = match.Groups["quote"].Value;
        return quote + value.Replace(quote, quote + quote, StringComparison.Ordinal) + quote;
    });

    // Not after a colon: '::' is a cast, which psql leaves alone.
    [GeneratedRegex("""(?<!:):(?<quote>["'])(?<name>[A-Za-z_][A-Za-z0-9_]*)\k<quote>""")]
    private static partial Regex Variable();
}
