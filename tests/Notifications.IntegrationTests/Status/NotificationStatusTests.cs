using System.Text;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.Shared.Contract;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.Status;

/// <summary>
/// "What happened to notification N?" on the real broker, database and SMTP server: every state answered by the
/// schema's notification_status function and by <c>admin show</c>, the dead letters recorded by the pipeline itself.
/// </summary>
[Collection("services")]
public sealed class NotificationStatusTests
{
    [Fact]
    public async Task EveryState_PipelineRun_AnsweredByTheFunctionAndAdminShow()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var sent = await db.InsertAsync(3);
        long invalid = await db.InsertRawAsync("a@b@example.com", "two at signs");
        long tooLarge = await db.InsertRawAsync("big@example.com", "too large", new string('x', 4000));

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker, ("Producer:MaxMessageBytes", "2048")))
        {
            await sink.WaitForMessagesAsync(sent.Count, TimeSpan.FromMinutes(1));
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter");
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == sent.Count, TimeSpan.FromMinutes(1), "sent records");
        }

        // sent: when, on which attempt
        var status = await StatusProbe.GetAsync(sent[0]);
        Assert.Equal(("sent", 1), (status.State, status.Attempts));
        Assert.InRange(status.At!.Value, DateTimeOffset.UtcNow.AddMinutes(-2), DateTimeOffset.UtcNow.AddMinutes(1));
        var show = await StatusProbe.ShowAsync(broker, sent[0]);
        Assert.Equal(0, show.ExitCode);
        Assert.Contains($"Notification {sent[0]}: sent", show.Output, StringComparison.Ordinal);
        Assert.Matches(@"sent at:\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z", show.Output);
        Assert.Contains("attempts:    1", show.Output, StringComparison.Ordinal);

        // dead-lettered by the consumer: why, when — the same reason the queue's message carries
        status = await StatusProbe.GetAsync(invalid);
        var letter = Assert.Single(await broker.DrainDeadLettersAsync());
        Assert.Equal(("dead_lettered", 1, letter.Reason), (status.State, status.Attempts, status.Reason));
        Assert.StartsWith("invalid recipient: 'a@b@example.com' is not a single e-mail address", status.Reason, StringComparison.Ordinal);
        Assert.Equal(Header(letter.Headers, "x-dead-at"), status.At!.Value.ToUnixTimeMilliseconds());
        show = await StatusProbe.ShowAsync(broker, invalid);
        Assert.Contains($"Notification {invalid}: dead-lettered", show.Output, StringComparison.Ordinal);
        Assert.Contains("reason:      invalid recipient: 'a@b@example.com' is not a single e-mail address", show.Output, StringComparison.Ordinal);

        // rejected by the producer: why
        status = await StatusProbe.GetAsync(tooLarge);
        Assert.Equal("rejected", status.State);
        Assert.StartsWith("message too large", status.Reason, StringComparison.Ordinal);
        Assert.Contains("reason:      message too large", (await StatusProbe.ShowAsync(broker, tooLarge)).Output, StringComparison.Ordinal);

        // waiting, scheduled for later
        long scheduled = await InsertScheduledAsync(DateTimeOffset.UtcNow.AddDays(1));
        status = await StatusProbe.GetAsync(scheduled);
        Assert.Equal("waiting", status.State);
        Assert.InRange(status.NotBefore!.Value, DateTimeOffset.UtcNow.AddHours(23), DateTimeOffset.UtcNow.AddHours(25));
        show = await StatusProbe.ShowAsync(broker, scheduled);
        Assert.Contains($"Notification {scheduled}: waiting in the outbox", show.Output, StringComparison.Ordinal);
        Assert.Contains("not before:", show.Output, StringComparison.Ordinal);
        Assert.Contains("scheduled", show.Output, StringComparison.Ordinal);

        // in flight: claimed by the producer, on the queue, no consumer yet
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.outbox WHERE id = @scheduled", new { scheduled });
        }

        long inFlight = (await db.InsertAsync(1))[0];
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.Queue), n => n == 1, TimeSpan.FromMinutes(1), "claimed and published");
        }

        Assert.Equal(0, await db.CountAsync("outbox"));
        status = await StatusProbe.GetAsync(inFlight);
        Assert.Equal("in_flight", status.State);
        Assert.Contains($"Notification {inFlight}: in flight", (await StatusProbe.ShowAsync(broker, inFlight)).Output, StringComparison.Ordinal);

        // unknown: never issued
        long never = inFlight + 1_000_000;
        Assert.Equal("unknown", (await StatusProbe.GetAsync(never)).State);
        show = await StatusProbe.ShowAsync(broker, never);
        Assert.Equal(1, show.ExitCode);
        Assert.Contains($"Notification {never}: unknown id", show.Output, StringComparison.Ordinal);
        Assert.Contains("never issued this id", show.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task SmtpPermanentFailure_EachMode_DeadLetterRecordedWithTheQueuesReason(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync("-f RCPT");
        long id = (await db.InsertAsync(1))[0];

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter");
        }

        var letter = Assert.Single(await broker.DrainDeadLettersAsync());
        var row = Assert.Single(await StatusProbe.DeadLetterRowsAsync());
        Assert.Equal((id, letter.Reason, 1), row);
        Assert.StartsWith("smtp permanent failure 5", row.Reason, StringComparison.Ordinal);
        var status = await StatusProbe.GetAsync(id);
        Assert.Equal(("dead_lettered", letter.Reason), (status.State, status.Reason));
    }

    [Fact]
    public async Task TransientFailuresUntilGivenUp_DeadLetterRecordsTheAttempts_PurgeRemovesTheRow()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync("-r RCPT");
        long id = (await db.InsertAsync(1))[0];

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter");
        }

        int attempts = broker.Options.RetryDelays.Length + 1;
        var status = await StatusProbe.GetAsync(id);
        Assert.Equal(("dead_lettered", attempts), (status.State, status.Attempts));
        Assert.StartsWith($"gave up after {attempts} attempts: smtp transient failure 4", status.Reason, StringComparison.Ordinal);
        Assert.Contains($"attempts:    {attempts}", (await StatusProbe.ShowAsync(broker, id)).Output, StringComparison.Ordinal);

        var (exit, output, error) = await AdminRun.InProcessAsync(broker, "", "purge", "dead-letters", "--yes");

        Assert.True(exit == 0, error);
        Assert.Contains("Deleted 1 dead letter(s)", output, StringComparison.Ordinal);
        Assert.Contains($"Deleted 1 row(s) from {TestDatabase.Schema}.dead_letter", output, StringComparison.Ordinal);
        Assert.Empty(await StatusProbe.DeadLetterRowsAsync());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        Assert.Equal("in_flight", (await StatusProbe.GetAsync(id)).State);
    }

    [Fact]
    public async Task SentOnTheSecondAttempt_AndGarbageBytes_RecordAttemptTwoAndARowWithoutId()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        const long Id = 424_242;
        await PublishAsync(broker, Id, attempt: 2);
        await broker.PublishRawAsync([0xC3, 0x28, 0xFF, 0x00], MessageSerializer.ContentType);

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await StatusProbe.WaitForAsync(Id, "sent");
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter");
        }

        Assert.Equal(2, (await StatusProbe.GetAsync(Id)).Attempts);
        Assert.Equal(new Dictionary<long, int> { [Id] = 1 }, sink.CountByNotificationId());
        var row = Assert.Single(await StatusProbe.DeadLetterRowsAsync());
        Assert.Null(row.Id);
        Assert.StartsWith("undeserializable", row.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Requeue_TableFollowsTheQueue_RowGoneWhenSentRowKeptWhenDeadLetteredAgain()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        // A 5xx to the message (its final "."), not to RCPT TO: a refused recipient is suppressed, and its requeued
        // copy would be recorded suppressed instead of tried again (docs/suppression.md).
        await using var sink = await SmtpSink.StartAsync("-f .");
        long id = (await db.InsertAsync(1))[0];
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter");
        }

        var first = await StatusProbe.GetAsync(id);
        Assert.Equal("dead_lettered", first.State);

        // Requeued while the server still refuses: dead-lettered again, and the table keeps the new row.
        var (exit, output, error) = await AdminRun.InProcessAsync(broker, "", "dead-letters", "requeue", "--id", id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(exit == 0, error);
        Assert.Contains("Requeued 1 dead letter(s)", output, StringComparison.Ordinal);
        var again = await Eventually.WaitAsync(() => StatusProbe.GetAsync(id), s => s.State == "dead_lettered" && s.At > first.At,
            TimeSpan.FromMinutes(1), "dead-lettered again");
        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter again");
        Assert.Single(await StatusProbe.DeadLetterRowsAsync());
        Assert.Equal(again, await StatusProbe.GetAsync(id));

        // Requeued once the server takes it: sent, and no dead-letter row left.
        await sink.RestartAsync();
        (exit, output, error) = await AdminRun.InProcessAsync(broker, "", "dead-letters", "requeue", "--id", id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(exit == 0, error);
        Assert.Contains($"Removed 1 row(s) from {TestDatabase.Schema}.dead_letter", output, StringComparison.Ordinal);
        await StatusProbe.WaitForAsync(id, "sent");
        await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(1));
        Assert.Empty(await StatusProbe.DeadLetterRowsAsync());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
    }

    [Fact]
    public async Task DeadLetterRowRefused_MessageGivenBackNotDeadLetteredUnrecorded_ThenRecordedOnceTheTableIsBack()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long invalid = await db.InsertRawAsync("a@b@example.com", "two at signs");
        var valid = await db.InsertAsync(5);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"ALTER TABLE {TestDatabase.Schema}.dead_letter RENAME TO dead_letter_away");
        try
        {
            await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
            await using (await WorkerHost.StartProducerAsync(broker))
            {
                await sink.WaitForMessagesAsync(valid.Count, TimeSpan.FromMinutes(1));
                await Task.Delay(TimeSpan.FromSeconds(3));
                // The row could not be written: no dead letter in the queue either; the message waits its turn again.
                Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
            }

            await connection.ExecuteAsync($"ALTER TABLE {TestDatabase.Schema}.dead_letter_away RENAME TO dead_letter");
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, TimeSpan.FromMinutes(1), "dead letter");
        }
        finally
        {
            await connection.ExecuteAsync($"ALTER TABLE IF EXISTS {TestDatabase.Schema}.dead_letter_away RENAME TO dead_letter");
        }

        var row = Assert.Single(await StatusProbe.DeadLetterRowsAsync());
        Assert.Equal((invalid, 1), (row.Id, row.Attempts));
        Assert.Equal("dead_lettered", (await StatusProbe.GetAsync(invalid)).State);
        Pipeline.PipelineTests.AssertExactlyOnce(valid, sink.CountByNotificationId());
    }

    private static async Task<long> InsertScheduledAsync(DateTimeOffset notBefore)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, not_before) VALUES ('later@example.com', 'Later', 'body', @notBefore) RETURNING id",
            new { notBefore = notBefore.UtcDateTime });
    }

    private static async Task PublishAsync(TestBroker broker, long id, int attempt)
    {
        var body = MessageSerializer.Serialize(new NotificationMessage(id, "retry@example.com", $"Order {id}", "Hello", false, DateTimeOffset.UtcNow, null));
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = MessageSerializer.ContentType,
            Headers = new Dictionary<string, object?> { ["x-attempt"] = attempt },
        };
        await using var connection = await new ConnectionFactory { Uri = broker.Options.Uri }.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync(new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true));
        await channel.BasicPublishAsync(broker.Options.Exchange, broker.Options.Queue, mandatory: true, properties, body);
    }

    private static long Header(IDictionary<string, object?> headers, string name) => headers[name] switch
    {
        long l => l,
        int i => i,
        byte[] b => long.Parse(Encoding.UTF8.GetString(b), System.Globalization.CultureInfo.InvariantCulture),
        var other => throw new InvalidOperationException($"{name}: {other}"),
    };
}
