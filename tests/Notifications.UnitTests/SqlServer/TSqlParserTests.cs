using Microsoft.SqlServer.TransactSql.ScriptDom;
using Notifications.Admin.Migrations;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.SqlServer;

/// <summary>Every T-SQL statement the project runs parses with the grammars of SQL Server 2019, 2022 and 2025.</summary>
public sealed class TSqlParserTests
{
    private const string ClaimSql = "SqlServerOutboxStore.ClaimSql";

    [Theory]
    [MemberData(nameof(TSqlStatements.CodeNames), MemberType = typeof(TSqlStatements))]
    public void Parse_StatementInCode_HasNoErrors(string name)
    {
        var (_, errors) = TSqlParsing.Parse(TSqlStatements.Get(name));

        Assert.True(errors.Count == 0, $"{name}:{Environment.NewLine}{string.Join(Environment.NewLine, errors)}");
    }

    [Theory]
    [MemberData(nameof(TSqlStatements.ScriptNames), MemberType = typeof(TSqlStatements))]
    public void Parse_SchemaScriptBatch_HasNoErrors(string name)
    {
        var (_, errors) = TSqlParsing.Parse(TSqlStatements.Get(name));

        Assert.True(errors.Count == 0, $"{name}:{Environment.NewLine}{string.Join(Environment.NewLine, errors)}");
    }

    [Fact]
    public void Parse_CreateLoginScript_EveryBatchHasNoErrors()
    {
        // deploy/sqlserver/create-login.sql, with the values deploy/sqlserver/create-logins sets by :setvar.
        string script = File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "deploy-sqlserver", "create-login.sql"));
        var variables = new Dictionary<string, string> { ["Role"] = "producer", ["Password"] = "0123abcd0123abcd", ["Database"] = "notifications" };

        var batches = SqlcmdScript.Batches(script, variables);

        Assert.Equal(3, batches.Count);
        Assert.All(batches, b => Assert.Empty(TSqlParsing.Parse(b).Errors));
    }

    [Fact]
    public void Parse_RoleGrantsAllowlistQuery_HasNoErrors()
    {
        var (_, errors) = TSqlParsing.Parse(Notifications.IntegrationTests.Security.SqlServerRoleGrants.Sql);

        Assert.True(errors.Count == 0, string.Join(Environment.NewLine, errors));
    }

    [Fact]
    public void InCode_StoresAndOutbox_CoverEveryKnownStatement()
    {
        string[] expected =
        [
            "SqlServerOutboxStore.ClaimSql", "SqlServerOutboxStore.ClaimDueSql", "SqlServerOutboxStore.RejectSql", "SqlServerOutboxStore.CountSql",
            "SqlServerDeliveryLogStore.FindSentSql", "SqlServerDeliveryLogStore.RecordSentSql",
            "SqlServerDeliveryLogStore.MarkSendingSql", "SqlServerDeliveryLogStore.ReleaseSql", "SqlServerDeliveryLogStore.RecordMaybeSentSql",
            "SqlServerDeliveryLogStore.MarkHandingBackSql", "SqlServerDeliveryLogStore.ReleaseHandedBackSql", "SqlServerDeliveryLogStore.RecordFailedSql",
            "SqlServerOperationsStore.WindowSql", "SqlServerOperationsStore.PurgeSql", "SqlServerOperationsStore.RateLimitsSql",
            "SqlServerDeadLetterStore.RecordSql",
            "SqlServerDeadLetterStore.RemoveSql", "SqlServerDeadLetterStore.FindSql", "SqlServerDeadLetterStore.FindRecordedSql", "SqlServerDeadLetterStore.RemoveAllSql",
            "SqlServerNotificationStatusStore.StatusSql",
            "SqlServerRetentionStore.LeaseSql", "SqlServerRetentionStore.DeleteDeliveryLogSql",
            "SqlServerRetentionStore.DeleteDeadLettersSql", "SqlServerRetentionStore.RecordRunSql",
            "SqlServerRetentionStore.DeleteIdempotencyKeysSql", "SqlServerRetentionStore.DeleteExpiredLiveSql",
            "SqlServerRetentionStore.DeleteOutcomeEventsSql",
            "SqlServerOutboxDialect.InsertSql", "SqlServerOutboxDialect.InsertOnceSql", "SqlServerOutboxDialect.StatusSql",
            "SqlServerOutboxDialect.AttachmentSql", "SqlServerAttachmentStore.LoadSql",
            "SqlServerOutboxDialect.TemplateVariablesSql",
            "SqlServerRateLimitStore.LeaseSql", "SqlServerRateLimitStore.SlowDownSql",
            "SqlServerRateLimitStore.EnterWindowSql", "SqlServerRateLimitStore.LeaveWindowSql",
            "SqlServerSuppressionStore.AddSql", "SqlServerSuppressionStore.RemoveSql", "SqlServerSuppressionStore.ListSql",
            "SqlServerSuppressionStore.ChangesSql", "SqlServerSuppressionStore.LoadSql", "SqlServerSuppressionStore.FindSql", "SqlServerSuppressionStore.RecordSuppressedSql",
            "SqlServerTemplateStore.NewestSql", "SqlServerTemplateStore.PutSql", "SqlServerTemplateStore.ListSql",
            "SqlServerWebhookEndpointStore.AddSql", "SqlServerWebhookEndpointStore.ListSql", "SqlServerWebhookEndpointStore.FindSql",
            "SqlServerWebhookEndpointStore.DisableSql", "SqlServerWebhookEndpointStore.EnableSql", "SqlServerWebhookEndpointStore.RotateSql",
            "SqlServerWebhookEndpointStore.ChangesSql",
            "SqlServerMigrationDialect.LockSql", "SqlServerMigrationDialect.JournalExistsSql", "SqlServerMigrationDialect.JournalSql",
            "SqlServerSuppressionStore.MarkDeadSql",
            "SqlServerAudienceStore.PutCategorySql", "SqlServerAudienceStore.CategoriesSql", "SqlServerAudienceStore.CategoryDefaultsSql",
            "SqlServerAudienceStore.SubscriberSql", "SqlServerAudienceStore.ContactPointsSql", "SqlServerAudienceStore.TopicsSql",
            "SqlServerAudienceStore.PreferencesSql", "SqlServerAudienceStore.ListTopicsSql", "SqlServerAudienceStore.SetPreferenceSql",
            "SqlServerAudienceStore.DeleteSubscriberSql",
            "SqlServerPreferenceStore.FindSql", "SqlServerPreferenceStore.FindLiveSql", "SqlServerPreferenceStore.RecordSql", "SqlServerPreferenceStore.OptOutSql",
            "SqlServerOutboxStore.StartFanOutSql", "SqlServerAudienceStore.DeliveryTallySql", "SqlServerAudienceStore.FirstDeliveriesSql",
            "SqlServerFanOutStore.LeaseSql", "SqlServerFanOutStore.TakeSql", "SqlServerFanOutStore.RenewSql", "SqlServerFanOutStore.AgainSql", "SqlServerFanOutStore.TopicSql",
            "SqlServerFanOutStore.TopicPageSql", "SqlServerFanOutStore.SubscriberPageSql",
            "SqlServerFanOutStore.EndSql", "SqlServerFanOutStore.AdvanceSql",
            "SqlServerRegistryDialect.UpsertSubscriberSql", "SqlServerRegistryDialect.FindSubscriberSql", "SqlServerRegistryDialect.AddContactPointSql",
            "SqlServerRegistryDialect.RemoveContactPointSql", "SqlServerRegistryDialect.EnsureTopicSql", "SqlServerRegistryDialect.SubscribeSql",
            "SqlServerRegistryDialect.UnsubscribeSql", "SqlServerRegistryDialect.FindCategorySql", "SqlServerRegistryDialect.SetPreferenceSql",
            "SqlServerLivePendingStore.AddSql", "SqlServerLivePendingStore.PendingSql", "SqlServerLivePendingStore.MarkSentSql",
            "SqlServerLivePendingStore.AckSql", "SqlServerLivePendingStore.AgeSql", "SqlServerLivePendingStore.FindSql", "SqlServerLivePendingStore.RecordLiveAckedSql",
            "SqlServerLivePendingStore.ReportExpiredSql",
            "SqlServerLiveBroadcastStore.AddSql", "SqlServerLiveBroadcastStore.RecipientsSql", "SqlServerLiveBroadcastStore.MarkRecipientsSql",
            "SqlServerLiveBroadcastStore.PendingSql", "SqlServerLiveBroadcastStore.AckSql", "SqlServerLiveBroadcastStore.ReportSql",
            "SqlServerLiveBroadcastStore.ReceiptTallySql", "SqlServerLiveBroadcastStore.FirstReceiptsSql",
            "SqlServerBounceDatabase.DeliveredSql", "SqlServerBounceDatabase.RecordOutcomeSql", "SqlServerBounceDatabase.CountDeferredSql",
        ];

        Assert.Empty(expected.Except(TSqlStatements.InCode.Keys));
    }

    [Fact]
    public void InScripts_SchemaScripts_EveryFileContributesBatches()
    {
        var files = TSqlStatements.InScripts.Keys.Select(k => k[..k.IndexOf(' ', StringComparison.Ordinal)]).Distinct().ToList();

        // Every numbered migration exists in both dialects under the same name, and each T-SQL file parsed into batches.
        var postgres = MigrationScripts.Embedded(DatabaseProvider.Postgres).Scripts.Select(s => MigrationScripts.FileOf(s.Name))
            .Where(name => !name.StartsWith(MigrationScripts.RepeatableFolder + "/", StringComparison.Ordinal));
        Assert.Equal(postgres.Order(StringComparer.Ordinal), files.Where(name => !name.StartsWith(MigrationScripts.RepeatableFolder + "/", StringComparison.Ordinal)).Order(StringComparer.Ordinal));
        Assert.Contains("007_outbox_priority_not_before.sql", files);
        Assert.Contains("009_dead_letters_and_retention.sql", files);
        Assert.Contains("010_notification_status.sql", files);
        Assert.Contains("013_idempotency_key.sql", files);
        Assert.Contains("008_outbox_lane_indexes.sql", files);
        Assert.Contains("012_dead_letter_per_message.sql", files);
        Assert.Contains("015_suppression.sql", files);
        Assert.Contains("014_templates.sql", files);
        Assert.Contains("016_message_headers.sql", files);
        Assert.Contains("018_webhook_endpoints.sql", files);
        Assert.Contains("019_outbox_urgent_notify.sql", files);
        Assert.Contains("025_audiences.sql", files);
        Assert.Contains("repeatable/10_notification_status.sql", files);
        Assert.Contains("repeatable/90_roles.sql", files);
        Assert.Contains("022_suppression_exact_keys.sql", files);
        Assert.Contains("024_template_variables.sql", files);
        Assert.Contains("029_preferences.sql", files);
        Assert.Contains("030_fan_out.sql", files);
        Assert.Contains("033_live_channel.sql", files);
        Assert.Contains("037_bounces.sql", files);
    }

    // Proves the checks above can fail: the parser rejects what a broken or PostgreSQL statement looks like.
    [Theory]
    [InlineData("DELETE FROM notifications.outbox WHERE id IN (SELECT id FROM notifications.outbox ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED) RETURNING id")]
    [InlineData("INSERT INTO notifications.delivery_log (notification_id, status) SELECT unnest(@Ids), 'sending' ON CONFLICT (notification_id) DO NOTHING")]
    [InlineData("WITH batch AS (SELECT TOP (@BatchSize) id FROM [notifications].[outbox] WITH (ROWLOCK, READPAST ORDER BY id) DELETE FROM batch")]
    public void Parse_BrokenOrPostgresStatement_ReportsErrors(string sql)
    {
        var (_, errors) = TSqlParsing.Parse(sql);

        Assert.NotEmpty(errors);
    }

    // Proves every grammar is applied, the oldest included: IS DISTINCT FROM came with SQL Server 2022.
    [Fact]
    public void Parse_Sql2022OnlySyntax_ReportsTheSql2019Grammar()
    {
        var (_, errors) = TSqlParsing.Parse("SELECT 1 AS one WHERE @a IS DISTINCT FROM @b");

        Assert.NotEmpty(errors);
        Assert.All(errors, e => Assert.StartsWith(nameof(TSql150Parser), e, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(ClaimSql)]
    [InlineData("SqlServerOutboxStore.ClaimDueSql")]
    public void ClaimSql_OutboxReference_CarriesRowlockReadpastAndUpdlock(string name)
    {
        var (fragment, _) = TSqlParsing.Parse(TSqlStatements.Get(name));

        var reference = Assert.Single(TableHintCollector.Collect(fragment, "outbox"));

        Assert.Contains(TableHintKind.Rowlock, reference);
        Assert.Contains(TableHintKind.ReadPast, reference);
        Assert.Contains(TableHintKind.UpdLock, reference);
    }

    [Fact]
    public void TableHintCollector_ClaimWithoutReadpast_ReportsItMissing()
    {
        string original = TSqlStatements.Get(ClaimSql);
        string withoutReadpast = original.Replace("READPAST, ", "", StringComparison.Ordinal);
        Assert.NotEqual(original, withoutReadpast);

        var reference = Assert.Single(TableHintCollector.Collect(TSqlParsing.Parse(withoutReadpast).Fragment, "outbox"));

        Assert.DoesNotContain(TableHintKind.ReadPast, reference);
        Assert.Contains(TableHintKind.Rowlock, reference);
    }
}
