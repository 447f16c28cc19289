using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Notifications.UnitTests.SqlServer;

/// <summary>The retention cleanup's T-SQL skips locked rows and stays in small batches; the status is a function of the schema.</summary>
public sealed class StatusSqlTests
{
    [Theory]
    [InlineData("SqlServerRetentionStore.DeleteDeliveryLogSql", "delivery_log")]
    [InlineData("SqlServerRetentionStore.DeleteDeadLettersSql", "dead_letter")]
    public void RetentionDelete_Table_CarriesRowlockAndReadpast(string name, string table)
    {
        var (fragment, errors) = TSqlParsing.Parse(TSqlStatements.Get(name));
        Assert.Empty(errors);

        var reference = Assert.Single(TableHintCollector.Collect(fragment, table));

        Assert.Contains(TableHintKind.Rowlock, reference);
        Assert.Contains(TableHintKind.ReadPast, reference);
        Assert.Contains("DELETE TOP (@BatchSize)", TSqlStatements.Get(name), StringComparison.Ordinal);
    }

    [Fact]
    public void StatusSql_ReadsTheSchemaFunction_DefinedByItsRepeatableFile()
    {
        string call = TSqlStatements.Get("SqlServerNotificationStatusStore.StatusSql");
        string function = TSqlStatements.Get("repeatable/10_notification_status.sql batch 1");

        Assert.Contains("[notifications].[notification_status](@Id)", call, StringComparison.Ordinal);
        Assert.Contains("CREATE OR ALTER FUNCTION [notifications].[notification_status](@id bigint)", function, StringComparison.Ordinal);
        foreach (string state in Notifications.Shared.Data.NotificationStatus.States)
        {
            Assert.Contains($"'{state}'", function, StringComparison.Ordinal);
        }
    }
}
