using Dapper;
using MimeKit;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Npgsql;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// Reply-To, Cc, Bcc and custom headers through the whole pipeline into smtp-sink, read back from its dump: the
/// headers as sent, every Cc and Bcc address in the envelope (smtp-sink writes one X-Rcpt-Args per RCPT TO), no
/// Bcc header; bad fields refused at the insert or dead-lettered with their reason while the rest is delivered.
/// </summary>
[Collection("services")]
public sealed class RicherMessageTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_ReplyToCcBccAndCustomHeaders_AtTheServerAndBccOnlyInTheEnvelope()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long id = await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "Your order", "Hello.")
        {
            ReplyTo = "Support <help@example.test>",
            Cc = "\"Doe, Jo\" <jo@example.test>, boss@example.test",
            Bcc = "audit@example.test, archive@example.test",
            Headers = new Dictionary<string, string> { ["X-Campaign"] = "spring sale", ["X-Tag"] = "Grüße", ["Precedence"] = "bulk" },
        });

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, Patience);
        }

        PipelineTests.AssertExactlyOnce([id], sink.CountByNotificationId());
        using MimeMessage received = SinkDump.LoadMessage(sink.MessageFiles().Single());
        Assert.Equal(["help@example.test"], received.ReplyTo.Mailboxes.Select(m => m.Address));
        Assert.Equal("Support", received.ReplyTo.Mailboxes.Single().Name);
        Assert.Equal(["jo@example.test", "boss@example.test"], received.Cc.Mailboxes.Select(m => m.Address));
        Assert.Equal("Doe, Jo", received.Cc.Mailboxes.First().Name);
        Assert.Equal("spring sale", received.Headers["X-Campaign"]);
        Assert.Equal("Grüße", received.Headers["X-Tag"]);
        Assert.Equal("bulk", received.Headers["Precedence"]);
        Assert.DoesNotContain(received.Headers, h => h.Id == HeaderId.Bcc);
        Assert.DoesNotContain("audit@", string.Join('\n', received.Headers.Where(h => h.Field != "X-Rcpt-Args")), StringComparison.Ordinal);
        Assert.Equal(
            ["<user@example.test>", "<jo@example.test>", "<boss@example.test>", "<audit@example.test>", "<archive@example.test>"],
            received.Headers.Where(h => h.Field == "X-Rcpt-Args").Select(h => h.Value));
    }

    [Fact]
    public async Task Pipeline_ForbiddenHeaderInjectionAndBadAddress_DeadLetteredWithReasonOthersDelivered()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long good1 = await InsertAsync("good1@example.test", headers: """{"X-Ok":"1"}""");
        var bad = new Dictionary<long, string>
        {
            [await InsertAsync("bad1@example.test", headers: """{"From":"ceo@example.test"}""")] = "invalid headers: 'From' is set by the system",
            [await InsertAsync("bad2@example.test", headers: """{"X-Tag":"a\r\nBcc: spy@example.test"}""")] = "invalid headers: the value of 'X-Tag' contains CR or LF",
            [await InsertAsync("bad3@example.test", cc: "not an address")] = "invalid cc:",
            [await InsertAsync("bad4@example.test", headers: """{"X-Tag":"ok","x-tag":"again"}""")] = "invalid headers: 'x-tag' appears twice",
        };
        long good2 = await InsertAsync("good2@example.test", cc: "copy@example.test");

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(2, Patience);
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == bad.Count, Patience, "dead letters");
        }

        PipelineTests.AssertExactlyOnce([good1, good2], sink.CountByNotificationId());
        var letters = await broker.DrainDeadLettersAsync();
        Assert.Equal(bad.Count, letters.Count);
        foreach ((long id, string reason) in bad)
        {
            var letter = Assert.Single(letters, l => l.Body.Contains($"\"id\":{id},", StringComparison.Ordinal));
            Assert.StartsWith(reason, letter.Reason, StringComparison.Ordinal);
        }

        await using var connection = await TestDatabase.OpenAsync();
        var rows = (await connection.QueryAsync<(long Id, string Reason)>(
            $"SELECT notification_id, reason FROM {TestDatabase.Schema}.dead_letter")).ToDictionary(r => r.Id, r => r.Reason);
        Assert.Equal(bad.Keys.Order(), rows.Keys.Order());
        Assert.All(bad, pair => Assert.StartsWith(pair.Value, rows[pair.Key], StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("cc", "a@example.test\r\nBcc: spy@example.test", "outbox_cc_one_line")]
    [InlineData("bcc", "a@example.test\nX: y", "outbox_bcc_one_line")]
    [InlineData("reply_to", "a@example.test\r", "outbox_reply_to_one_line")]
    [InlineData("headers", """["X-Tag"]""", "outbox_headers_json_object")]
    public async Task Outbox_LineBreakInAddressListOrHeadersNotAnObject_RefusedAtInsert(string column, string value, string constraint)
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, {column}) VALUES ('a@example.test', 's', 'b', @value)", new { value }));

        Assert.Equal(PostgresErrorCodes.CheckViolation, refused.SqlState);
        Assert.Equal(constraint, refused.ConstraintName);
    }

    [Fact]
    public async Task Outbox_HeadersNotJson_RefusedAtInsert()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, headers) VALUES ('a@example.test', 's', 'b', 'X-Tag: 1')"));

        Assert.Equal(PostgresErrorCodes.InvalidTextRepresentation, refused.SqlState);
    }

    [Fact]
    public async Task Enqueue_OwnedHeader_ArgumentExceptionAndNothingInserted()
    {
        await TestDatabase.CleanAsync();

        await Assert.ThrowsAsync<ArgumentException>(() => TestDatabase.EnqueueAsync(
            new NewNotification("a@example.test", "s", "b") { Headers = new Dictionary<string, string> { ["List-Unsubscribe"] = "<mailto:x@example.test>" } }));

        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.outbox"));
    }

    private static async Task<long> InsertAsync(string recipient, string? cc = null, string? headers = null)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, cc, headers) VALUES (@recipient, 's', 'b', @cc, @headers) RETURNING id",
            new { recipient, cc, headers });
    }
}
