using System.Reflection;
using Notifications.Client.SqlServer;
using Notifications.Consumer.Channels.Email.Attachments;
using Notifications.Consumer.RateLimiting;
using DbUp.Support;
using Notifications.Bounces.Effects;
using Notifications.Admin.Migrations;
using Notifications.Shared.Data.SqlServer;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.SqlServer;

/// <summary>
/// Every piece of T-SQL the project runs: each internal <c>*Sql</c> property of the SQL Server stores
/// (found by reflection, so a new statement is covered without being listed), the SQL Server inserts of
/// the client's SQL Server package (<see cref="SqlServerOutboxDialect"/>, <see cref="SqlServerRegistryDialect"/>), the migrator's own, and every batch of db/sqlserver
/// (numbered and repeatable) as <c>notifications-admin migrate</c> sends it.
/// </summary>
internal static class TSqlStatements
{
    public const string Schema = "notifications";

    private static readonly DatabaseOptions Options = new()
    {
        Provider = DatabaseProvider.SqlServer,
        ConnectionString = "Server=never-connected",
        Schema = Schema,
    };

    /// <summary>Name ("Type.Property") to statement, for the statements built in code.</summary>
    public static IReadOnlyDictionary<string, string> InCode { get; } = BuildInCode();

    /// <summary>Name ("NNN_file.sql batch N") to batch, for the schema scripts.</summary>
    public static IReadOnlyDictionary<string, string> InScripts { get; } = BuildInScripts();

    public static string Get(string name) => InCode.TryGetValue(name, out var sql) ? sql : InScripts[name];

    public static TheoryData<string> CodeNames() => new(InCode.Keys);

    public static TheoryData<string> ScriptNames() => new(InScripts.Keys);

    public static TheoryData<string> AllNames() => new(InCode.Keys.Concat(InScripts.Keys));

    private static Dictionary<string, string> BuildInCode()
    {
        var statements = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (object store in new object[]
                 {
                     new SqlServerOutboxStore(Options), new SqlServerDeliveryLogStore(Options), new SqlServerOperationsStore(Options),
                     new SqlServerDeadLetterStore(Options), new SqlServerNotificationStatusStore(Options), new SqlServerRetentionStore(Options), new SqlServerRateLimitStore(Options),
                     new SqlServerSuppressionStore(Options),
                     new SqlServerTemplateStore(Options),
                     new SqlServerWebhookEndpointStore(Options),
                     new SqlServerOutcomeEventStore(Options), new Notifications.Shared.Outcomes.OutcomeEvents(Options),
                     new SqlServerAudienceStore(Options),
                     new SqlServerPreferenceStore(Options),
                     new SqlServerFanOutStore(Options),
                     new SqlServerAttachmentStore(Options),
                     new SqlServerLivePendingStore(Options), new SqlServerLiveBroadcastStore(Options),
                     new SqlServerNotificationSearchStore(Options), new SqlServerDeadLetterGroupStore(Options), new SqlServerAdminJobStore(Options),
                 })
        {
            var properties = store.GetType()
                .GetProperties(BindingFlags.Instance | BindingFlags.NonPublic)
                .Where(p => p.PropertyType == typeof(string) && p.Name.EndsWith("Sql", StringComparison.Ordinal));
            foreach (var property in properties)
            {
                statements[$"{store.GetType().Name}.{property.Name}"] = (string)property.GetValue(store)!;
            }
        }

        // The bounce receiver's statements (Bounces/Effects), and the suppression add it shares with the stores above.
        var bounces = new SqlServerBounceDatabase(Options);
        foreach (var property in typeof(IBounceDatabase).GetProperties().Where(p => p.PropertyType == typeof(string)))
        {
            statements[$"{nameof(SqlServerBounceDatabase)}.{property.Name}"] = (string)property.GetValue(bounces)!;
        }

        statements[$"{nameof(SqlServerOutboxDialect)}.{nameof(SqlServerOutboxDialect.InsertSql)}"] = SqlServerOutboxDialect.InsertSql(Schema);
        statements[$"{nameof(SqlServerOutboxDialect)}.{nameof(SqlServerOutboxDialect.InsertOnceSql)}"] = SqlServerOutboxDialect.InsertOnceSql(Schema);
        statements[$"{nameof(SqlServerOutboxDialect)}.{nameof(SqlServerOutboxDialect.AttachmentSql)}"] = SqlServerOutboxDialect.AttachmentSql(Schema);
        statements[$"{nameof(SqlServerOutboxDialect)}.{nameof(SqlServerOutboxDialect.StatusSql)}"] = SqlServerOutboxDialect.Instance.StatusSql(Schema);
        // The client's audience registry: every statement of its SQL Server dialect.
        var registry = SqlServerRegistryDialect.Instance.Sql(Schema);
        foreach (var property in registry.GetType().GetProperties().Where(p => p.PropertyType == typeof(string)))
        {
            statements[$"{nameof(SqlServerRegistryDialect)}.{property.Name}"] = (string)property.GetValue(registry)!;
        }

        statements[$"{nameof(SqlServerOutboxDialect)}.{nameof(SqlServerOutboxDialect.TemplateVariablesSql)}"] = SqlServerOutboxDialect.Instance.TemplateVariablesSql(Schema);
        statements[$"{nameof(SqlServerMigrationDialect)}.{nameof(SqlServerMigrationDialect.LockSql)}"] = SqlServerMigrationDialect.LockSql;
        statements[$"{nameof(SqlServerMigrationDialect)}.{nameof(SqlServerMigrationDialect.JournalExistsSql)}"] = SqlServerMigrationDialect.JournalExistsSql;
        statements[$"{nameof(SqlServerMigrationDialect)}.{nameof(SqlServerMigrationDialect.JournalSql)}"] = SqlServerMigrationDialect.JournalSql(Schema);
        return statements;
    }

    private static Dictionary<string, string> BuildInScripts()
    {
        // As notifications-admin migrate sends them: the files built into the tool, $(Schema) substituted, split on GO by DbUp.
        var batches = new Dictionary<string, string>(StringComparer.Ordinal);
        var variables = new SqlServerMigrationDialect().Variables(Schema);
        var splitter = new SqlCommandSplitter();
        foreach (var script in MigrationScripts.Embedded(DatabaseProvider.SqlServer).Scripts)
        {
            var fileBatches = splitter.SplitScriptIntoCommands(variables.Process(script.Contents)).ToList();
            for (int i = 0; i < fileBatches.Count; i++)
            {
                batches[$"{MigrationScripts.FileOf(script.Name)} batch {i + 1}"] = fileBatches[i];
            }
        }

        return batches;
    }
}
