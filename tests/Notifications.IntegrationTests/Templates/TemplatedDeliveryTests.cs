using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Sending;
using Npgsql;

namespace Notifications.IntegrationTests.Templates;

/// <summary>
/// Templated notifications through the whole pipeline (client, outbox, producer, broker, consumer rendering with Fluid,
/// MailKit) into smtp-sink, each received file parsed back with MimeKit; and each kind of bad input dead-lettered with its
/// reason in the <c>dead_letter</c> table while the good rows around it are delivered.
/// </summary>
[Collection("services")]
public sealed class TemplatedDeliveryTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_TemplatedRows_SinkReceivesTheRenderedSubjectAndBodies()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await TemplateRows.PutAsync("order", "en", "Order {{ order }} for {{ customer.name }}", "Hello {{ customer.name }}, {{ items.size }} item(s).\n", TemplateRows.OrderHtml);
        await TemplateRows.PutAsync("order", "pt", "Pedido {{ order }} — obrigado", TemplateRows.OrderText, null);
        // A templated notification takes the richer message's fields as a prepared one does.
        long english = await TestDatabase.EnqueueAsync(
            NewNotification.FromTemplate("ana@example.test", "order", TemplateRows.OrderData, "en-GB") with { ReplyTo = "support@example.test" });
        long brazilian = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("joao@example.test", "order", TemplateRows.OrderData, "pt-BR"));
        long unknownLocale = await TestDatabase.EnqueueAsync(NewNotification.FromTemplate("kim@example.test", "order", TemplateRows.OrderData, "ko-KR"));

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(3, Patience);
        }

        PipelineTests.AssertExactlyOnce([english, brazilian, unknownLocale], sink.CountByNotificationId());
        var received = sink.MessageFiles().Select(SinkDump.LoadMessage).ToDictionary(m => long.Parse(m.Headers["X-Notification-Id"]!, System.Globalization.CultureInfo.InvariantCulture));

        var en = received[english];
        Assert.Equal("Order A-7 for Zoë <Admin> & Co", SinkDump.DecodedSubject(en));
        Assert.Equal("multipart/alternative", en.Body!.ContentType.MimeType);
        Assert.Equal("support@example.test", en.ReplyTo.Mailboxes.Single().Address);
        Assert.Equal("Hello Zoë <Admin> & Co, 2 item(s).\n", en.TextBody?.ReplaceLineEndings("\n"));
        Assert.Equal("<p>Hello Zoë &lt;Admin&gt; &amp; Co,</p><ul><li>2 x Pen</li><li>1 x Ink &lt;black&gt;</li></ul>\n", en.HtmlBody?.ReplaceLineEndings("\n"));

        var pt = received[brazilian];
        Assert.Equal("Pedido A-7 — obrigado", SinkDump.DecodedSubject(pt));
        Assert.Equal("text/plain", pt.Body!.ContentType.MimeType);
        Assert.Equal("Olá Zoë <Admin> & Co,\n- 2 x Pen\n- 1 x Ink <black>\nTotal: 42.50\n", pt.TextBody?.ReplaceLineEndings("\n"));

        // No Korean version and no configured default beyond "en": English, not a failure.
        Assert.Equal("Order A-7 for Zoë <Admin> & Co", SinkDump.DecodedSubject(received[unknownLocale]));
        Assert.Equal(0L, await new TestDatabase().CountAsync("dead_letter"));
    }

    [Fact]
    public async Task Pipeline_TemplatePutWhileRunning_NextNotificationRendersTheNewVersion()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await TemplateRows.PutAsync("welcome", "en", "Welcome v1, {{ customer.name }}", "v1", null);

        // Interval 0: the table is read for every notification, so the put is seen by the very next one.
        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Templates:RefreshInterval", "00:00:00")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await TemplateRows.InsertAsync("a@example.test", "welcome", TemplateRows.OrderData);
            await sink.WaitForMessagesAsync(1, Patience);
            await TemplateRows.PutAsync("welcome", "en", "Welcome v2, {{ customer.name }}", "v2", null);
            await TemplateRows.InsertAsync("b@example.test", "welcome", TemplateRows.OrderData);
            await sink.WaitForMessagesAsync(2, Patience);
        }

        var subjects = sink.MessageFiles().Select(SinkDump.LoadMessage).Select(SinkDump.DecodedSubject).Order(StringComparer.Ordinal);
        Assert.Equal(["Welcome v1, Zoë <Admin> & Co", "Welcome v2, Zoë <Admin> & Co"], subjects);
    }

    [Fact]
    public async Task Pipeline_BadTemplatedRows_EachDeadLetteredWithItsReasonAndTheRestDelivered()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await TemplateRows.PutAsync("order", "en", "Order {{ order }}", TemplateRows.OrderText, TemplateRows.OrderHtml);
        await TemplateRows.PutAsync("broken", "en", "Order {{ order }}", "{% for item in items %}no end", null);
        await TemplateRows.PutAsync("strict", "en", "Order {{ order }}", "Dear {{ customer.title }} {{ customer.name }}", null);
        await TemplateRows.PutAsync("divide", "en", "Order {{ order }}", "{{ total | divided_by: 0 }}", null);
        var expected = new Dictionary<long, string>
        {
            [await TemplateRows.InsertAsync("a@example.test", "no-such-template", TemplateRows.OrderData)] = "unknown template: 'no-such-template' (no version in any locale)",
            [await TemplateRows.InsertAsync("b@example.test", "broken", TemplateRows.OrderData)] = "template 'broken' (en, version 1) does not parse: text body: ",
            [await TemplateRows.InsertAsync("c@example.test", "strict", TemplateRows.OrderData)] = "template 'strict' (en, version 1): text body: missing variable 'customer.title'",
            [await TemplateRows.InsertAsync("d@example.test", "divide", TemplateRows.OrderData, "fr")] = "template 'divide' (en, version 1): text body: render failed: DivideByZeroException",
        };
        var good = new List<long>();
        for (int i = 0; i < 5; i++)
        {
            good.Add(await TemplateRows.InsertAsync($"good{i}@example.test", "order", TemplateRows.OrderData, "xx-YY"));
        }

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(good.Count, Patience);
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == expected.Count, Patience, "dead letters");
        }

        PipelineTests.AssertExactlyOnce(good, sink.CountByNotificationId());
        await using var connection = await TestDatabase.OpenAsync();
        var rows = (await connection.QueryAsync<(long Id, string Reason)>(
            $"SELECT notification_id, reason FROM {TestDatabase.Schema}.dead_letter")).ToDictionary(r => r.Id, r => r.Reason);
        Assert.Equal(expected.Keys.Order(), rows.Keys.Order());
        Assert.All(expected, e => Assert.StartsWith(e.Value, rows[e.Key], StringComparison.Ordinal));
        Assert.Equal(expected.Count, (await broker.DrainDeadLettersAsync()).Count);
    }

    [Theory]
    [InlineData("[1,2]", PostgresErrorCodes.CheckViolation, "outbox_template_data_object")]
    [InlineData("\"a string\"", PostgresErrorCodes.CheckViolation, "outbox_template_data_object")]
    [InlineData("not json", PostgresErrorCodes.InvalidTextRepresentation, null)]
    public async Task Outbox_TemplateDataNotAJsonObject_RefusedAtInsert(string data, string sqlState, string? constraint)
    {
        await TestDatabase.CleanAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(() => TemplateRows.InsertAsync("a@example.test", "order", data));

        Assert.Equal(sqlState, refused.SqlState);
        Assert.Equal(constraint, refused.ConstraintName);
        Assert.Equal(0L, await new TestDatabase().CountAsync("outbox"));
    }

    [Theory]
    [InlineData("INSERT INTO notifications.outbox (recipient) VALUES ('a@example.test')")]
    [InlineData("INSERT INTO notifications.outbox (recipient, subject, body, template_name, template_data) VALUES ('a@example.test', 's', 'b', 'order', '{}')")]
    [InlineData("INSERT INTO notifications.outbox (recipient, template_name) VALUES ('a@example.test', 'order')")]
    public async Task Outbox_RowNeitherPreparedNorTemplated_RefusedByTheCheck(string insert)
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(insert));

        Assert.Equal("outbox_prepared_or_templated", refused.ConstraintName);
    }
}
