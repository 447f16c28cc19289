using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Sending;
using Notifications.IntegrationTests.Templates;
using Npgsql;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// A template sent to a topic and to a subscriber (docs/fan-out.md): each delivery rendered by the consumer in the
/// subscriber's own locale from the registry, or in the one the row names, checked in the mail smtp-sink received; and
/// the outbox's check refusing a templated audience row with a channel a template cannot render.
/// </summary>
[Collection("services")]
public sealed class AudienceTemplateTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task TemplateToATopicAndASubscriber_EachRenderedInTheSubscribersLocaleUnlessTheRowNamesOne()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await TemplateRows.PutAsync("shipped", "en", "Shipped: {{ order }}", "Order {{ order }} is on its way.\n", null);
        await TemplateRows.PutAsync("shipped", "pt", "Enviado: {{ order }}", "O pedido {{ order }} está a caminho.\n", null);
        await using (var services = AppRegistry.Services())
        {
            var registry = services.GetRequiredService<ISubscriberRegistry>();
            await AppRegistry.InTransactionAsync(commit: true, async tx =>
            {
                await registry.UpsertSubscriberAsync(tx, new Subscriber("ana", Locale: "pt-BR"));
                await registry.AddEmailAsync(tx, "ana", "ana@example.test");
                await registry.UpsertSubscriberAsync(tx, new Subscriber("bo", Locale: "en-GB"));
                await registry.AddEmailAsync(tx, "bo", "bo@example.test");
                await registry.SubscribeAsync(tx, "ana", "orders");
                await registry.SubscribeAsync(tx, "bo", "orders");
            });
        }

        var data = new System.Text.Json.Nodes.JsonObject { ["order"] = "A-7" };
        long topic = await TestDatabase.EnqueueAsync(NewNotification.ToTopicFromTemplate("orders", "shipped", data));
        long forced = await TestDatabase.EnqueueAsync(NewNotification.ToSubscriberFromTemplate("bo", "shipped", data, locale: "pt"));

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(3, Patience);
            // A job ends after its page is published, so its mail may arrive first; a producer stopped in between leaves the
            // job to the next holder (docs/fan-out.md). So wait for the ends while it runs (a fresh-clone run stopped it first).
            await Eventually.WaitAsync(() => JobStatesAsync(topic, forced), s => s.SequenceEqual(["done", "done"]), Patience, "both jobs done");
        }

        var received = sink.MessageFiles().Select(SinkDump.LoadMessage)
            .Select(m => (To: m.To.ToString(), Subject: SinkDump.DecodedSubject(m), Text: (m.TextBody ?? "").ReplaceLineEndings("\n")))
            .OrderBy(m => m.To, StringComparer.Ordinal).ThenBy(m => m.Subject, StringComparer.Ordinal).ToList();
        Assert.Equal(
            [
                ("ana@example.test", "Enviado: A-7", "O pedido A-7 está a caminho.\n"),
                ("bo@example.test", "Enviado: A-7", "O pedido A-7 está a caminho.\n"),
                ("bo@example.test", "Shipped: A-7", "Order A-7 is on its way.\n"),
            ],
            received);
        Assert.All(sink.CountByNotificationId().Values, count => Assert.Equal(1, count));
        Assert.Equal(["done", "done"], await JobStatesAsync(topic, forced));
    }

    private static async Task<List<string>> JobStatesAsync(params long[] ids)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<string>(
            $"SELECT state FROM {TestDatabase.Schema}.fanout_job WHERE id = ANY(@ids) ORDER BY id", new { ids })).AsList();
    }

    [Fact]
    public async Task Outbox_TemplatedAudienceRowForPush_RefusedByItsCheck_EmailAccepted()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
        string insert = $"INSERT INTO {TestDatabase.Schema}.outbox (channel, channels, recipient, template_name, template_data, subject, body) VALUES ";
        foreach (string values in new[]
                 {
                     """('audience', 'push', 'topic:news', 'digest', '{}', NULL, NULL)""",
                     """('audience', 'email,push', 'topic:news', 'digest', '{}', NULL, NULL)""",
                     """('audience', 'email', 'topic:news', 'digest', '{}', 'a subject', NULL)""",
                     """('audience', 'email', 'topic:news', 'digest', NULL, NULL, NULL)""",
                 })
        {
            var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(insert + values));
            Assert.Equal(PostgresErrorCodes.CheckViolation, refused.SqlState);
        }

        Assert.Equal(1, await connection.ExecuteAsync(insert + """('audience', 'email', 'topic:news', 'digest', '{}', NULL, NULL)"""));
    }
}
