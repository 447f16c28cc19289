using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Notifications.UnitTests.SqlServer;

/// <summary>
/// Finds PostgreSQL-only syntax in T-SQL by its tokens, so a word in a comment or a string literal is
/// not a finding. The parser alone is not enough: it accepts <c>x::int</c> (T-SQL's <c>type::member</c>
/// syntax) and <c>"name"</c> (a quoted identifier), and a LIMIT may parse as an alias.
/// </summary>
internal static class PostgresSyntaxFinder
{
    /// <summary>Each finding as "CONSTRUCT at line N".</summary>
    public static IReadOnlyList<string> Find(string sql)
    {
        var tokens = TSqlParsing.Tokens(sql).Where(t => !IsTrivia(t)).ToList();
        var findings = new List<string>();
        for (int i = 0; i < tokens.Count; i++)
        {
            var next = i + 1 < tokens.Count ? tokens[i + 1] : null;
            if (Classify(tokens[i], next) is { } construct)
            {
                findings.Add($"{construct} at line {tokens[i].Line}");
            }
        }

        return findings;
    }

    private static string? Classify(TSqlParserToken token, TSqlParserToken? next) => token.TokenType switch
    {
        TSqlTokenType.Identifier when IsWord(token, "LIMIT") => "LIMIT",
        TSqlTokenType.Identifier when IsWord(token, "RETURNING") => "RETURNING",
        TSqlTokenType.Identifier when IsWord(token, "SKIP") && IsWord(next, "LOCKED") => "SKIP LOCKED",
        TSqlTokenType.On when IsWord(next, "CONFLICT") => "ON CONFLICT",
        TSqlTokenType.DoubleColon => ":: cast",
        TSqlTokenType.QuotedIdentifier or TSqlTokenType.AsciiStringOrQuotedIdentifier when token.Text.StartsWith('"') =>
            "double-quoted identifier",
        _ => null,
    };

    private static bool IsWord(TSqlParserToken? token, string word) =>
        token is { TokenType: TSqlTokenType.Identifier } && string.Equals(token.Text, word, StringComparison.OrdinalIgnoreCase);

    private static bool IsTrivia(TSqlParserToken token) => token.TokenType is
        TSqlTokenType.WhiteSpace or TSqlTokenType.SingleLineComment or TSqlTokenType.MultilineComment or TSqlTokenType.EndOfFile;
}
