using System.Text;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using Npgsql;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// The bad-input catalogue of RELIABILITY.md, as outbox rows and as raw bytes on the queue, in one
/// pipeline run among valid notifications: each bad input gets a clear error and is kept with its
/// reason (dead-letter queue, rejected table, or the database refusing the insert at the source: what the table's checks can
/// say, migrations 023 and 027, it refuses; the address syntax beyond them reaches the consumer);
/// every valid notification is delivered exactly once; no worker stops.
/// </summary>
[Collection("services")]
public sealed class BadInputCatalogueTests
{
    private static readonly DateTimeOffset Now = DateTimeOffset.UtcNow;

    [Fact]
    public async Task Pipeline_BadInputCatalogue_EachKeptWithItsReasonValidOnesDeliveredNoWorkerStops()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var valid = new List<long>(await db.InsertAsync(300));

        // Rows the database itself refuses: the business app's insert fails with a clear error.
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES (NULL, 's', 'b')", "recipient");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (id, recipient, subject, body) VALUES (0, 'a@example.com', 's', 'b')", "outbox_id_positive");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (id, recipient, subject, body) VALUES (-5, 'a@example.com', 's', 'b')", "outbox_id_positive");
        await AssertInsertRefusedAsync($"INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('a@example.com', '{new string('s', 999)}', 'b')", "too long");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('a@example.com', 's', convert_from('\\xc328'::bytea, 'UTF8'))", "invalid byte sequence");
        // Migration 023's checks (the whole corpus: Client/BadInputCorpusTests).
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('', 'empty', 'b')", "outbox_email_recipient_one_address");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('not-an-address', 'invalid', 'b')", "outbox_email_recipient_one_address");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('a@example.com' || chr(13) || chr(10) || 'Bcc: victim@example.com', 'crlf', 'b')", "outbox_email_recipient_one_address");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('Eve <e@example.com>', 'display name', 'b')", "outbox_email_recipient_one_address");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('x@example.com; DROP TABLE outbox', 'sql', 'b')", "outbox_email_recipient_one_address");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('b@example.com', 'Hi' || chr(13) || chr(10) || 'Bcc: victim@example.com', 'b')", "outbox_subject_one_line");
        // Migration 027's.
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('a..b@example.com', 'consecutive dots', 'b')", "outbox_email_recipient_no_dots");
        await AssertInsertRefusedAsync("INSERT INTO notifications.outbox (recipient, subject, body) VALUES ('big@example.com', '10 MB body', repeat('x', 10 * 1024 * 1024))", "outbox_body_characters");

        // Rows that reach the pipeline: (id, where it must end up, expected reason).
        var deadRows = new Dictionary<long, string>
        {
            [await db.InsertRawAsync("a@b@example.com", "two at signs")] = "not a single e-mail address",
            [await InsertAsync("INSERT INTO notifications.outbox (recipient, subject, body, expires_at) VALUES ('late@example.com', 'expired', 'b', now() - interval '1 minute') RETURNING id")] = "expired at",
        };
        // At the body's limit (migration 027), over the producer's message limit set below.
        long tooLarge = await db.InsertRawAsync("huge@example.com", "too large for the broker", new string('y', 1024 * 1024));
        const string sqlMeta = "'; DROP TABLE notifications.outbox; -- \" /* */ \\ %_";
        long sqlMetaRow = await db.InsertRawAsync("o'brien@example.com", sqlMeta, sqlMeta);
        long farFuture = await InsertAsync("INSERT INTO notifications.outbox (recipient, subject, body, created_at, expires_at) VALUES ('future@example.com', 'far future', 'b', '2999-01-01', '9999-12-31') RETURNING id");
        valid.AddRange([sqlMetaRow, farFuture]);
        valid.AddRange(await db.InsertAsync(300));

        // Raw bytes on the queue, as any client could publish them: (bytes, content type, type, expected reason).
        var raw = new List<(byte[] Body, string? ContentType, string? Type, string Reason)>
        {
            ([0xC3, 0x28, 0xFF, 0xFE], "application/json", null, "undeserializable"),
            (Encoding.UTF8.GetBytes("{\"id\":5,\"recipient\":\"x@example.com\""), "application/json", null, "undeserializable"),
            (Encoding.UTF8.GetBytes("null"), "application/json", null, "undeserializable"),
            (Encoding.UTF8.GetBytes("<xml/>"), "text/xml", null, "wrong content type"),
            (Json(Message(900_001)), null, null, "wrong content type"),
            (Json(Message(900_002)), "application/json", "sms.v1", "unknown message type"),
            (Encoding.UTF8.GetBytes("{\"id\":900003,\"createdAt\":\"2026-01-01T00:00:00Z\"}"), "application/json", null, "invalid recipient: empty"),
            (Json(Message(0)), "application/json", null, "invalid id"),
            (Json(Message(-7)), "application/json", null, "invalid id"),
            (Json(Message(900_004) with { Subject = "Hi\r\nBcc: victim@example.com" }), "application/json", null, "header injection"),
            (Json(Message(900_005) with { Subject = new string('s', 5000) }), "application/json", null, "longer than"),
            (Json(Message(900_006) with { ExpiresAt = Now.AddDays(-1) }), "application/json", null, "expired at"),
            (Json(Message(900_007) with { Body = null }), "application/json", null, "invalid body: missing"),
            (Json(Message(900_008) with { Body = new string('x', (1024 * 1024) + 1) }), "application/json", null, "invalid body"),
            // The same bytes as above under other properties, so with another reason: each is a dead letter of its own, and a row of its own.
            (Encoding.UTF8.GetBytes("<xml/>"), "application/json", null, "undeserializable"),
            (Encoding.UTF8.GetBytes("null"), "application/json", "sms.v1", "unknown message type"),
        };
        foreach (var (body, contentType, type, _) in raw)
        {
            await broker.PublishRawAsync(body, contentType, type);
        }

        await broker.PublishRawAsync(Json(Message(900_100)), "application/json", MessageSerializer.MessageType);
        valid.Add(900_100);

        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using (var producer = await WorkerHost.StartProducerAsync(broker, ("Producer:MaxMessageBytes", "1000000")))
        {
            await sink.WaitForMessagesAsync(valid.Count, TimeSpan.FromMinutes(2));
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == deadRows.Count + raw.Count,
                TimeSpan.FromMinutes(1), "dead letters");
            await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, TimeSpan.FromMinutes(1), "outbox drained");
            AssertStillRunning(producer);
        }

        PipelineTests.AssertExactlyOnce(valid, sink.CountByNotificationId());
        var dumped = string.Concat(sink.MessageFiles().Select(File.ReadAllText));
        Assert.Contains("o'brien@example.com", dumped, StringComparison.Ordinal);
        var letters = await broker.DrainDeadLetterBytesAsync();
        Assert.Equal(deadRows.Count + raw.Count, letters.Count);
        foreach (var (id, reason) in deadRows)
        {
            var letter = Assert.Single(letters, l => Encoding.UTF8.GetString(l.Body).StartsWith($"{{\"id\":{id},", StringComparison.Ordinal));
            Assert.Contains(reason, letter.Reason, StringComparison.Ordinal);
            Assert.Equal(1, Convert.ToInt32(letter.Headers["x-dead-attempts"], System.Globalization.CultureInfo.InvariantCulture));
        }

        foreach (var (body, _, _, reason) in raw)
        {
            Assert.Single(letters, l => l.Body.AsSpan().SequenceEqual(body) && l.Reason.Contains(reason, StringComparison.Ordinal));
        }

        // Every dead-queue message has its own row: none was dropped as the copy of another.
        Assert.Equal(letters.Count, await db.CountAsync("dead_letter"));

        await using (var connection = await TestDatabase.OpenAsync())
        {
            string rejected = await connection.ExecuteScalarAsync<string>("SELECT reason FROM notifications.rejected WHERE id = @tooLarge", new { tooLarge }) ?? "";
            Assert.Contains("message too large", rejected, StringComparison.Ordinal);
        }

        // The same id inserted again after it was delivered: recognised by the delivery log, not sent twice.
        await InsertAsync($"INSERT INTO notifications.outbox (id, recipient, subject, body) VALUES ({valid[0]}, 'user1@example.com', 'again', 'b') RETURNING id");
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => Task.FromResult(consumer.Get<Notifications.Consumer.Telemetry.ConsumerStats>().Duplicates), n => n >= 1,
                TimeSpan.FromMinutes(1), "duplicate recognised");
        }

        Assert.Equal(1, sink.CountByNotificationId()[valid[0]]);
        AssertStillRunning(consumer);
    }

    private static void AssertStillRunning(WorkerHost host)
    {
        foreach (var service in host.Services.GetServices<IHostedService>().OfType<BackgroundService>())
        {
            Assert.True(service.ExecuteTask is null || !service.ExecuteTask.IsCompleted || service is Notifications.Consumer.Benchmarking.KillSwitchService,
                $"{service.GetType().Name} stopped: {service.ExecuteTask?.Exception}");
        }
    }

    private static async Task AssertInsertRefusedAsync(string sql, string expected)
    {
        await using var connection = await TestDatabase.OpenAsync();
        var ex = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(sql));
        Assert.Contains(expected, ex.Message + " " + ex.ConstraintName + " " + ex.ColumnName, StringComparison.Ordinal);
    }

    private static async Task<long> InsertAsync(string sql)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(sql);
    }

    private static NotificationMessage Message(long id) => new(id, $"raw{id}@example.com", "raw", "raw body", false, Now, null);

    private static byte[] Json(NotificationMessage message) => MessageSerializer.Serialize(message);
}
