using System.Text.RegularExpressions;

namespace Notifications.Client;

/// <summary>The outbox schema's name is put into SQL text (it cannot be a parameter): only a plain identifier is.</summary>
internal static partial class OutboxSchemaName
{
    /// <summary>The outbox's default schema, as the migrations create it.</summary>
    public const string Default = "notifications";

    /// <exception cref="ArgumentException"><paramref name="schema"/> is not a plain identifier.</exception>
    public static string Checked(string schema, string paramName)
    {
        ArgumentNullException.ThrowIfNull(schema, paramName);
        return Plain().IsMatch(schema) ? schema : throw new ArgumentException($"'{schema}' is not a plain schema name.", paramName);
    }

    [GeneratedRegex("^[A-Za-z_][A-Za-z0-9_]{0,62}\\z")]
    private static partial Regex Plain();
}
