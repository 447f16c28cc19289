using System.Security.Cryptography;
using Dapper;
using Microsoft.Extensions.Logging.Abstractions;
using MimeKit;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Retention;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// An HTML alternative and attached files (issue 28, item 4) through the real client, producer, broker and consumer into
/// smtp-sink, the received file parsed with MimeKit: the parts, the names, the bytes. The files stay in the table until the
/// mail is sent, and the retention cleanup deletes them with the notification's records.
/// </summary>
[Collection("services")]
public sealed class MailPartsTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task Pipeline_HtmlBodyAndTwoFiles_ArriveAsMixedOfAlternativeAndFilesWithTheirBytes()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        byte[] pdf = RandomNumberGenerator.GetBytes(300_000);
        byte[] csv = "month;amount\njan;1042,00\n"u8.ToArray();
        long id = await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "Your invoice", "Invoice 1042 is attached.")
        {
            HtmlBody = "<p>Invoice <b>1042</b> is attached.</p>",
            Attachments =
            [
                new NotificationAttachment("invoice-1042.pdf", "application/pdf", pdf),
                new NotificationAttachment("Übersicht März.csv", "text/csv", csv),
            ],
        });

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Smtp:From", "Acme Billing <billing@acme.example>")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, Patience);
        }

        PipelineTests.AssertExactlyOnce([id], sink.CountByNotificationId());
        using MimeMessage received = SinkDump.LoadMessage(sink.MessageFiles().Single());
        Assert.Equal(("Acme Billing", "billing@acme.example"), (received.From.Mailboxes.Single().Name, received.From.Mailboxes.Single().Address));
        var mixed = Assert.IsType<Multipart>(received.Body);
        Assert.Equal("multipart/mixed", mixed.ContentType.MimeType);
        var alternative = Assert.IsType<MultipartAlternative>(mixed[0]);
        Assert.Equal(["text/plain", "text/html"], alternative.Select(p => p.ContentType.MimeType));
        Assert.Equal("Invoice 1042 is attached.\n", received.TextBody!.ReplaceLineEndings("\n"));
        Assert.Equal("<p>Invoice <b>1042</b> is attached.</p>\n", received.HtmlBody!.ReplaceLineEndings("\n"));
        var files = received.Attachments.Cast<MimePart>().ToList();
        Assert.Equal(["invoice-1042.pdf", "Übersicht März.csv"], files.Select(f => f.FileName));
        Assert.Equal(["application/pdf", "text/csv"], files.Select(f => f.ContentType.MimeType));
        Assert.Equal(pdf, Decoded(files[0]));
        Assert.Equal(csv, Decoded(files[1]));
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(2, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {S}.attachment WHERE notification_id = @id", new { id }));
    }

    [Fact]
    public async Task Retention_SentAndDeadLetteredWithFiles_FilesDeletedWithTheirRecords()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long sent = await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "s", "b")
        {
            Attachments = [new NotificationAttachment("a.pdf", "application/pdf", [1, 2, 3])],
        });
        long missing = await InsertWithMissingFileAsync();

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, Patience);
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, Patience, "dead letter");
        }

        PipelineTests.AssertExactlyOnce([sent], sink.CountByNotificationId());
        var letter = Assert.Single(await broker.DrainDeadLettersAsync());
        Assert.StartsWith("invalid attachments: the message names 2 files, the attachment table holds 1", letter.Reason, StringComparison.Ordinal);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(2, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {S}.attachment"));
        await connection.ExecuteAsync($"UPDATE {S}.delivery_log SET updated_at = now() - interval '40 days'");
        await connection.ExecuteAsync($"UPDATE {S}.dead_letter SET dead_lettered_at = now() - interval '40 days'");

        var result = await new RetentionCleanup(StatusProbe.Retention(), new RetentionOptions(), TimeProvider.System, NullLogger<RetentionCleanup>.Instance)
            .RunAsync(CancellationToken.None);

        Assert.Equal((1L, 1L), (result.DeliveryLogRows, result.DeadLetterRows));
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {S}.attachment WHERE notification_id IN (@sent, @missing)", new { sent, missing }));
    }

    [Fact]
    public async Task Enqueue_RepeatedIdempotencyKeyWithFiles_StoresTheFilesOnce()
    {
        await TestDatabase.CleanAsync();
        var notification = new NewNotification("user@example.test", "s", "b")
        {
            IdempotencyKey = "invoice-1042",
            Attachments = [new NotificationAttachment("a.pdf", "application/pdf", [1]), new NotificationAttachment("b.pdf", "application/pdf", [2])],
        };

        long first = await TestDatabase.EnqueueAsync(notification);
        long again = await TestDatabase.EnqueueAsync(notification);

        Assert.Equal(first, again);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(
            [(first, (short)0, "a.pdf"), (first, (short)1, "b.pdf")],
            await connection.QueryAsync<(long, short, string)>($"SELECT notification_id, position, file_name FROM {S}.attachment ORDER BY position"));
        Assert.Equal((short)2, await connection.ExecuteScalarAsync<short>($"SELECT attachment_count FROM {S}.outbox WHERE id = @first", new { first }));
    }

    [Fact]
    public async Task Enqueue_ElevenFiles_ArgumentExceptionNamingTheLimitAndNothingInserted()
    {
        await TestDatabase.CleanAsync();
        var files = Enumerable.Range(1, 11).Select(i => new NotificationAttachment($"{i}.pdf", "application/pdf", [1])).ToList();

        var refused = await Assert.ThrowsAsync<ArgumentException>(() => TestDatabase.EnqueueAsync(
            new NewNotification("user@example.test", "s", "b") { Attachments = files }));

        Assert.Equal(nameof(NewNotification.Attachments), refused.ParamName);
        Assert.Contains("at most 10", refused.Message, StringComparison.Ordinal);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {S}.outbox"));
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {S}.attachment"));
    }

    // A row written by plain SQL that names two files and stores one: the consumer must not send it without the other.
    private static async Task<long> InsertWithMissingFileAsync()
    {
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
        long id = await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {S}.outbox (recipient, subject, body, attachment_count) VALUES ('other@example.test', 's', 'b', 2) RETURNING id");
        await connection.ExecuteAsync(
            $"INSERT INTO {S}.attachment (notification_id, position, file_name, content_type, content) VALUES (@id, 0, 'a.pdf', 'application/pdf', '\\x01'::bytea)",
            new { id });
        return id;
    }

    private static byte[] Decoded(MimePart part)
    {
        using var bytes = new MemoryStream();
        part.Content!.DecodeTo(bytes);
        return bytes.ToArray();
    }
}
