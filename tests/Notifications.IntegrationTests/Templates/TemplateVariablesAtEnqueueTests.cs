using Dapper;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Sending;

namespace Notifications.IntegrationTests.Templates;

/// <summary>
/// The template check at enqueue (issue 28, item 3): a template put with <c>admin templates put</c> records the variables
/// it uses; the client, as the app's role, refuses a templated notification whose data lacks one, naming the template
/// and the variables, and takes one that carries them all, which is delivered as before. Each test uses a template name
/// of its own: the client keeps a template's variables 10 seconds.
/// </summary>
[Collection("services")]
public sealed class TemplateVariablesAtEnqueueTests
{
    private const string Text = "Hi {{ customer.name | upcase }},\n{% for item in items %}- {{ item.name }}\n{% endfor %}{% assign due = total | round: 2 %}Due: {{ due }}\n";

    [Fact]
    public async Task Enqueue_DataLacksAVariable_RefusedNamingItAndAllPresentDelivered()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var put = await PutAsync(broker, "receipt-vars", "Receipt {{ order.number }}");
        Assert.True(put.ExitCode == 0, put.Error);
        Assert.Contains("Variables: customer, items, order, total", put.Output, StringComparison.Ordinal);

        var refused = await Assert.ThrowsAsync<ArgumentException>(() => TestDatabase.EnqueueAsync(
            NewNotification.FromTemplate("ana@example.test", "receipt-vars", """{"order":{"number":"R-1"},"items":[]}""", "en-GB")));
        long accepted = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate(
            "ana@example.test", "receipt-vars", """{"order":{"number":"R-2"},"customer":{"name":"Ana"},"items":[{"name":"Pen"}],"total":null}""", "en-GB"));

        Assert.Equal("TemplateData", refused.ParamName);
        Assert.Contains("template 'receipt-vars' uses 'customer', 'total', missing from the data", refused.Message, StringComparison.Ordinal);
        Assert.Equal(1L, await new TestDatabase().CountAsync("outbox"));
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(2));
        }

        PipelineTests.AssertExactlyOnce([accepted], sink.CountByNotificationId());
        var message = SinkDump.LoadMessage(sink.MessageFiles().Single());
        Assert.Equal("Receipt R-2", SinkDump.DecodedSubject(message));
        Assert.StartsWith("Hi ANA,\n- Pen\nDue: ", message.TextBody?.ReplaceLineEndings("\n"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Enqueue_LocaleChoosesTheVersion_OnlyThatVersionsVariablesChecked()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        Assert.Equal(0, (await PutAsync(broker, "locale-vars", "Recibo {{ order.number }}", locale: "pt")).ExitCode);
        Assert.Equal(0, (await PutAsync(broker, "locale-vars", "Receipt {{ order.number }} {{ store }}", locale: "en")).ExitCode);
        const string data = """{"order":{"number":"R-3"},"customer":{"name":"Ana"},"items":[],"total":1}""";

        long brazilian = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "locale-vars", data, "pt-BR"));
        var english = await Assert.ThrowsAsync<ArgumentException>(() =>
            TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "locale-vars", data, "en")));
        // An unknown locale renders the consumer's default, which the client cannot see: only what every locale needs.
        long korean = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "locale-vars", data, "ko-KR"));

        Assert.Contains("'store'", english.Message, StringComparison.Ordinal);
        Assert.Equal([brazilian, korean], await new TestDatabase().InOutboxAsync([brazilian, korean]));
    }

    [Fact]
    public async Task Enqueue_TemplateStoredBefore024_NotChecked()
    {
        await TestDatabase.CleanAsync();
        // As a version put before migration 024: variables NULL.
        await TemplateRows.PutAsync("legacy-vars", "en", "Order {{ order }}", "Dear {{ customer.name }}", null);

        long id = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "legacy-vars", """{"order":"A-1"}"""));

        Assert.Equal([id], await new TestDatabase().InOutboxAsync([id]));
    }

    /// <summary>
    /// A name with no version in any locale: the consumer dead-letters it ("unknown template"), so the client refuses it,
    /// whatever the data, and nothing is inserted; an unknown name is not kept, so once the template is put the same
    /// enqueue goes in at once.
    /// </summary>
    [Fact]
    public async Task Enqueue_UnknownTemplate_RefusedNamingItThenTakenAtOnceWhenPut()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        const string data = """{"order":{"number":"R-5"},"customer":{"name":"Ana"},"items":[],"total":1}""";

        var withData = await Assert.ThrowsAsync<ArgumentException>(() =>
            TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "not-yet-put", data)));
        var emptyData = await Assert.ThrowsAsync<ArgumentException>(() =>
            TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "not-yet-put", "{}")));
        Assert.Equal(0, (await PutAsync(broker, "not-yet-put", "Receipt {{ order.number }}")).ExitCode);
        long id = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "not-yet-put", data));

        Assert.Equal("TemplateName", withData.ParamName);
        Assert.Equal("TemplateName", emptyData.ParamName);
        Assert.Contains("template 'not-yet-put' has no version in any locale", withData.Message, StringComparison.Ordinal);
        Assert.Equal([id], await new TestDatabase().InOutboxAsync([id]));
        Assert.Equal(1L, await new TestDatabase().CountAsync("outbox"));
    }

    [Fact]
    public async Task Enqueue_AppRoleCannotReadTemplates_NotCheckedAndTheTransactionGoesOn()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        Assert.Equal(0, (await PutAsync(broker, "nogrant-vars", "Receipt {{ order.number }}")).ExitCode);
        await using var owner = await TestDatabase.OpenAsync();
        await owner.ExecuteAsync($"REVOKE SELECT (name, locale, version, variables) ON {TestDatabase.Schema}.template FROM notifications_app");
        // The static path (no DI) logs to NotificationOutbox.LoggerFactory: the skipped check is said once (EventId 7000).
        var log = new RecordingLoggerProvider();
        using var factory = LoggerFactory.Create(b => b.AddProvider(log).SetMinimumLevel(LogLevel.Trace));
        NotificationOutbox.LoggerFactory = factory;
        try
        {
            // PostgreSQL aborts a transaction on an error: the check reads behind a savepoint, so the insert still goes in.
            long id = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("ana@example.test", "nogrant-vars", """{"order":{"number":"R-4"}}"""));
            long second = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("bo@example.test", "nogrant-vars", """{"order":{"number":"R-5"}}"""));

            Assert.Equal([id, second], await new TestDatabase().InOutboxAsync([id, second]));
            var warning = Assert.Single(log.Lines, l => l.Contains("[7000]", StringComparison.Ordinal));
            Assert.StartsWith("Warning Notifications.Client[7000] Template variables are not checked at enqueue in schema", warning, StringComparison.Ordinal);
        }
        finally
        {
            NotificationOutbox.LoggerFactory = NullLoggerFactory.Instance;
            await owner.ExecuteAsync($"GRANT SELECT (name, locale, version, variables) ON {TestDatabase.Schema}.template TO notifications_app");
        }
    }

    private static async Task<(int ExitCode, string Output, string Error)> PutAsync(TestBroker broker, string name, string subject, string locale = "en")
    {
        string text = Path.Combine(Directory.CreateTempSubdirectory("template-vars-").FullName, "body.txt");
        await File.WriteAllTextAsync(text, Text);
        return await AdminRun.InProcessAsync(broker, "", "templates", "put", name, "--locale", locale, "--subject", subject, "--text", text);
    }
}
