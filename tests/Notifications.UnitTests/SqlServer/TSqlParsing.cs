using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Notifications.UnitTests.SqlServer;

/// <summary>
/// ScriptDom's parsers for every SQL Server the project supports — 2019 (TSql150Parser), 2022 (TSql160Parser,
/// the stack's) and 2025 (TSql170Parser) — QUOTED_IDENTIFIER on as every client sets it. A statement must parse
/// in each grammar; the syntax tree and tokens are the newest grammar's.
/// </summary>
internal static class TSqlParsing
{
    private static readonly Func<TSqlParser>[] Grammars =
    [
        () => new TSql150Parser(initialQuotedIdentifiers: true),
        () => new TSql160Parser(initialQuotedIdentifiers: true),
        () => new TSql170Parser(initialQuotedIdentifiers: true),
    ];

    public static (TSqlFragment Fragment, IReadOnlyList<string> Errors) Parse(string sql)
    {
        var errors = new List<string>();
        TSqlFragment? fragment = null;
        foreach (var grammar in Grammars)
        {
            var parser = grammar();
            fragment = parser.Parse(new StringReader(sql), out var parseErrors);
            errors.AddRange(parseErrors.Select(e => $"{parser.GetType().Name}, line {e.Line}, column {e.Column}: {e.Message}"));
        }

        return (fragment!, errors);
    }

    /// <summary>The lexer's tokens, comments and whitespace included (callers skip them).</summary>
    public static IReadOnlyList<TSqlParserToken> Tokens(string sql) =>
        Grammars[^1]().GetTokenStream(new StringReader(sql), out _).ToList();
}
