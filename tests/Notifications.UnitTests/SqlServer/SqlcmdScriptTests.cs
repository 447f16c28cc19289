namespace Notifications.UnitTests.SqlServer;

public sealed class SqlcmdScriptTests
{
    [Fact]
    public void Batches_ScriptWithGoLines_SplitsOnGoAloneOnItsLineAndSubstitutesSchema()
    {
        const string script = "CREATE SCHEMA [$(Schema)];\nGO\nSELECT 'GOOD' AS go_on;\n  go  -- end\nSELECT 1 FROM [$(schema)].[t]\nGO\n";

        var batches = SqlcmdScript.Batches(script, "s1");

        Assert.Equal(["CREATE SCHEMA [s1];", "SELECT 'GOOD' AS go_on;", "SELECT 1 FROM [s1].[t]"], batches);
    }

    [Fact]
    public void Batches_UnknownVariable_Throws()
    {
        var ex = Assert.Throws<ArgumentException>(() => SqlcmdScript.Batches("SELECT '$(Other)'", "s1"));

        Assert.Contains("$(Other)", ex.Message, StringComparison.Ordinal);
    }
}
