namespace Notifications.UnitTests.SqlServer;

/// <summary>No PostgreSQL-only construct leaks into T-SQL; checked on tokens, not on substrings.</summary>
public sealed class PostgresSyntaxFinderTests
{
    [Theory]
    [MemberData(nameof(TSqlStatements.AllNames), MemberType = typeof(TSqlStatements))]
    public void Find_ProjectTSql_FindsNothing(string name)
    {
        var findings = PostgresSyntaxFinder.Find(TSqlStatements.Get(name));

        Assert.True(findings.Count == 0, $"{name}: {string.Join(", ", findings)}");
    }

    [Theory]
    [InlineData("SELECT id FROM [n].[outbox] ORDER BY id LIMIT 10", "LIMIT")]
    [InlineData("DELETE FROM [n].[outbox] WHERE id = 1 RETURNING id", "RETURNING")]
    [InlineData("SELECT id FROM [n].[outbox] FOR UPDATE SKIP LOCKED", "SKIP LOCKED")]
    [InlineData("INSERT INTO [n].[delivery_log] (notification_id) VALUES (1) ON CONFLICT (notification_id) DO NOTHING", "ON CONFLICT")]
    [InlineData("SELECT @Ids::bigint[]", ":: cast")]
    [InlineData("SELECT id FROM \"n\".outbox", "double-quoted identifier")]
    public void Find_PostgresConstruct_ReportsIt(string sql, string construct)
    {
        var findings = PostgresSyntaxFinder.Find(sql);

        Assert.Contains($"{construct} at line 1", findings);
    }

    [Fact]
    public void Find_ConstructsOnlyInCommentsStringsAndBrackets_FindsNothing()
    {
        const string sql = """
            -- LIMIT 10 RETURNING id, FOR UPDATE SKIP LOCKED
            /* ON CONFLICT DO NOTHING; x::int; "quoted" */
            SELECT 'LIMIT', N'RETURNING "x"', 'a::b', [limit], [returning]
            FROM [n].[outbox] AS o
            WHERE o.subject = 'ON CONFLICT';
            """;

        Assert.Empty(PostgresSyntaxFinder.Find(sql));
    }
}
