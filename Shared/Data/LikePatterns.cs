namespace Notifications.Shared.Data;

/// <summary>LIKE patterns from text typed by a person: its wildcards matched as themselves, in both dialects.</summary>
public static class LikePatterns
{
    /// <summary>
    /// A pattern (with <c>ESCAPE '\'</c>) matching what starts with <paramref name="prefix"/>: <c>\</c>, <c>%</c>, <c>_</c> and
    /// SQL Server's <c>[</c> escaped, so "a_b%" finds keys starting with exactly that, not any a, any character, b.
    /// </summary>
    public static string StartsWith(string prefix)
    {
        var pattern = new System.Text.StringBuilder(prefix.Length + 8);
        foreach (char c in prefix)
        {
            if (c is '\\' or '%' or '_' or '[')
            {
                pattern.Append('\\');
            }

            pattern.Append(c);
        }

        return pattern.Append('%').ToString();
    }
}
