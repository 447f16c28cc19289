using Notifications.Admin.Migrations;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.Migrations;

/// <summary>The migrations the admin tool carries, in the order and under the journal names <c>migrate</c> uses.</summary>
public sealed class MigrationScriptsTests
{
    [Theory]
    [InlineData(DatabaseProvider.Postgres)]
    [InlineData(DatabaseProvider.SqlServer)]
    public void Embedded_EachDialect_NumberedInNameOrderThenRepeatableWithTheirHashRolesLast(DatabaseProvider provider)
    {
        var names = MigrationScripts.Embedded(provider).Scripts.Select(s => s.Name).ToList();

        Assert.Equal("001_outbox.sql", names[0]);
        var numbered = names.TakeWhile(n => !n.StartsWith("repeatable/", StringComparison.Ordinal)).ToList();
        Assert.Equal(numbered.Order(StringComparer.Ordinal), numbered);
        Assert.All(numbered, n => Assert.Matches(@"^\d{3}_[a-z0-9_]+\.sql$", n));
        var repeatable = names.Skip(numbered.Count).ToList();
        Assert.All(repeatable, n => Assert.Matches(@"^repeatable/\d\d_[a-z0-9_]+\.sql@[0-9a-f]{12}$", n));
        Assert.StartsWith("repeatable/10_notification_status.sql@", repeatable[0], StringComparison.Ordinal);
        Assert.StartsWith("repeatable/90_roles.sql@", repeatable[^1], StringComparison.Ordinal);
    }

    [Fact]
    public void RepeatableName_SameTextWithOtherLineEnds_SameName()
    {
        string lf = MigrationScripts.RepeatableName("repeatable/10_f.sql", "CREATE FUNCTION f();\nSELECT 1;\n");
        string crlf = MigrationScripts.RepeatableName("repeatable/10_f.sql", "CREATE FUNCTION f();\r\nSELECT 1;\r\n");
        string edited = MigrationScripts.RepeatableName("repeatable/10_f.sql", "CREATE FUNCTION f();\nSELECT 2;\n");

        Assert.Equal(lf, crlf);
        Assert.NotEqual(lf, edited);
        Assert.Equal("repeatable/10_f.sql", MigrationScripts.FileOf(edited));
        Assert.Equal("017_channels.sql", MigrationScripts.FileOf("017_channels.sql"));
    }

    [Fact]
    public void PsqlVariables_IdentifierLiteralAndCast_AsPsqlInterpolates()
    {
        var variables = new PsqlVariables(new Dictionary<string, string> { ["schema"] = "n\"x" });

        string sql = variables.Process("""CREATE SCHEMA IF NOT EXISTS :"schema"; SET x.y = :'schema'; SELECT data::json, '{"a":1}'::jsonb;""");

        Assert.Equal("""CREATE SCHEMA IF NOT EXISTS "n""x"; SET x.y = 'n"x'; SELECT data::json, '{"a":1}'::jsonb;""", sql);
    }

    [Fact]
    public void PsqlVariables_UnknownVariable_ThrowsNamingIt()
    {
        var variables = new PsqlVariables(new Dictionary<string, string> { ["schema"] = "n" });

        var e = Assert.Throws<InvalidOperationException>(() => variables.Process("""SELECT * FROM :"other".t"""));

        Assert.Contains(":\"other\"", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void SqlcmdVariables_SchemaAnyCase_SubstitutedEverywhere()
    {
        var variables = new SqlcmdVariables(new Dictionary<string, string> { ["Schema"] = "n1" });

        Assert.Equal("IF SCHEMA_ID(N'n1') IS NULL EXEC (N'CREATE SCHEMA [n1]');", variables.Process("IF SCHEMA_ID(N'$(Schema)') IS NULL EXEC (N'CREATE SCHEMA [$(schema)]');"));
        Assert.Throws<InvalidOperationException>(() => variables.Process("SELECT '$(Other)'"));
    }
}
