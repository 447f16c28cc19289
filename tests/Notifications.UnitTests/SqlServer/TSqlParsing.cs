using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Notifications.UnitTests.SqlServer;

/// <summary>ScriptDom's SQL Server 2019 parser (TSql150Parser), QUOTED_IDENTIFIER on as every client sets it.</summary>
internal static class TSqlParsing
{
    public static (TSqlFragment Fragment, IReadOnlyList<string> Errors) Parse(string sql)
    {
        var fragment = Parser().Parse(new StringReader(sql), out var errors);
        return (fragment, errors.Select(e => $"line {e.Line}, column {e.Column}: {e.Message}").ToList());
    }

    /// <summary>The lexer's tokens, comments and whitespace included (callers skip them).</summary>
    public static IReadOnlyList<TSqlParserToken> Tokens(string sql) =>
        Parser().GetTokenStream(new StringReader(sql), out _).ToList();

    private static TSql150Parser Parser() => new(initialQuotedIdentifiers: true);
}
