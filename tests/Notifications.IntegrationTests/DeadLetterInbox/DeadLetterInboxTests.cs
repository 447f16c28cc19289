using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.IntegrationTests.Shutdown;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.DeadLetterInbox;

/// <summary>
/// What the broker dead-letters on its own, on the real broker (quorum queues) and PostgreSQL: the consumers' dead-letter inbox
/// records each notification in the <c>dead_letter</c> table with the broker's reason, moves it to the dead-letter queue, and
/// the status and the admin tool find it there with its payload.
/// </summary>
[Collection("services")]
public sealed class DeadLetterInboxTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Recorder_EnvelopeExpiredInTheWorkQueue_EachItemRecordedExpiredDeadAndShownWithItsPayload()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum);
        await using var sink = await SmtpSink.StartAsync();
        var ids = await ClaimedAsync(db, 3);
        Assert.All(await Task.WhenAll(ids.Select(StatusProbe.GetAsync)), s => Assert.Equal("in_flight", s.State));

        // Nobody consumes the work queue while the envelope's time to live runs out.
        await broker.PublishAsync(broker.Options.Queue, Envelope(expiration: "1"), EnvelopeSerializer.Pack([.. ids.Select(Body)]));
        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterInbox), n => n == 1, Patience, "the envelope in the inbox");
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 3, Patience, "three dead letters");
        }

        var rows = await StatusProbe.DeadLetterRowsAsync();
        Assert.Equal(ids.Order(), rows.Select(r => r.Id!.Value).Order());
        Assert.All(rows, r => Assert.StartsWith($"expired: dead-lettered by the broker from queue '{broker.Options.Queue}'", r.Reason, StringComparison.Ordinal));
        foreach (long id in ids)
        {
            var status = await StatusProbe.GetAsync(id);
            Assert.Equal("dead_lettered", status.State);
            Assert.StartsWith("expired", status.Reason, StringComparison.Ordinal);
            var show = await AdminRun.InProcessAsync(broker, "", "dead-letters", "show", "--id", id.ToString(System.Globalization.CultureInfo.InvariantCulture));
            Assert.Equal(0, show.ExitCode);
            Assert.Contains($"notification id:  {id}", show.Output, StringComparison.Ordinal);
            Assert.Contains("reason:           expired: dead-lettered by the broker", show.Output, StringComparison.Ordinal);
            Assert.Contains($"\"subject\": \"Order shipped #", show.Output, StringComparison.Ordinal);
            Assert.Contains($"\"id\": {id}", show.Output, StringComparison.Ordinal);
        }

        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterInbox));
        Assert.Equal(0, sink.MessageCount());
        var queues = await AdminRun.InProcessAsync(broker, "", "status");
        Assert.Matches($@"\s{System.Text.RegularExpressions.Regex.Escape(broker.Options.DeadLetterInbox)}\s+0\s", queues.Output);
    }

    [Fact]
    public async Task Recorder_HandedBackUntilTheDeliveryLimit_RecordedDeliveryLimit()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum, deliveryLimit: 2);
        await using var sink = await SmtpSink.StartAsync();
        long id = (await ClaimedAsync(db, 1))[0];
        await broker.PublishAsync(broker.Options.Queue, Single(), Body(id));

        // A consumer that takes it and hands it back, again and again, until the broker gives up on it.
        int handedBack = await HandBackUntilGoneAsync(broker);
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, Patience, "the dead letter");
        }

        var row = Assert.Single(await StatusProbe.DeadLetterRowsAsync());
        Assert.Equal(id, row.Id);
        Assert.StartsWith($"delivery_limit: dead-lettered by the broker from queue '{broker.Options.Queue}'", row.Reason, StringComparison.Ordinal);
        Assert.Equal(("dead_lettered", row.Reason), ((await StatusProbe.GetAsync(id)).State, (await StatusProbe.GetAsync(id)).Reason));
        var letter = Assert.Single(await broker.DrainDeadLettersAsync());
        Assert.Equal(row.Reason, letter.Reason);
        Assert.True(letter.Headers.ContainsKey("x-death"), "the broker's x-death header is kept");
        Assert.Equal(3, handedBack);
    }

    /// <summary>
    /// Fault row 31 in seconds: a poison envelope — every consumer that takes it crashes before its first send (a SIGKILL of
    /// its own, <c>Faults:KillAt before-send:1</c>) — is redelivered until the quorum queue's delivery limit, and then each of
    /// its items is recorded <c>delivery_limit</c>, none sent.
    /// </summary>
    [Fact]
    public async Task Recorder_EnvelopeCrashingEveryConsumerUntilTheDeliveryLimit_EachItemRecordedDeliveryLimit()
    {
        const int deliveryLimit = 2;
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum, deliveryLimit: deliveryLimit);
        await using var sink = await SmtpSink.StartAsync();
        var ids = await ClaimedAsync(db, 3);
        await broker.PublishAsync(broker.Options.Queue, Envelope(expiration: null), EnvelopeSerializer.Pack([.. ids.Select(Body)]));

        int crashes = 0;
        while (!await InTheInboxAsync(broker) && crashes <= 3 * deliveryLimit)
        {
            await using var victim = WorkerProcess.Start("Consumer", broker, (Shared.Hosting.FaultInjector.TestHooksVariable, "1"),
                ("Faults:KillAt", "before-send:1"), ("Consumer:Channels", "1"), ("Consumer:Handlers", "1"), ("Consumer:Prefetch", "1"),
                ("Consumer:UrgentHandlers", "1"));
            await Eventually.WaitAsync(() => Task.FromResult(victim.HasExited), exited => exited, Patience, "the consumer crashed on the envelope");
            crashes++;
        }

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 3, Patience, "three dead letters");
        }

        var rows = await StatusProbe.DeadLetterRowsAsync();
        Assert.Equal(ids.Order(), rows.Select(r => r.Id!.Value).Order());
        Assert.All(rows, r => Assert.StartsWith($"delivery_limit: dead-lettered by the broker from queue '{broker.Options.Queue}'", r.Reason, StringComparison.Ordinal));
        Assert.All(await Task.WhenAll(ids.Select(StatusProbe.GetAsync)), s => Assert.Equal("dead_lettered", s.State));
        Assert.Equal(deliveryLimit + 1, crashes);
        Assert.Equal(0, sink.MessageCount());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterInbox));
    }

    [Fact]
    public async Task Recorder_KilledBetweenTheRowsAndTheAck_RedeliveredCopyRecordsNothingNew()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum);
        var ids = await ClaimedAsync(db, 2);
        await broker.PublishAsync(broker.Options.Queue, Envelope(expiration: "1"), EnvelopeSerializer.Pack([.. ids.Select(Body)]));
        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterInbox), n => n == 1, Patience, "the envelope in the inbox");

        await using (var victim = WorkerProcess.Start(
            "Consumer", broker, (Shared.Hosting.FaultInjector.TestHooksVariable, "1"), ("Faults:KillAt", "after-inbox-row:1")))
        {
            await Eventually.WaitAsync(() => Task.FromResult(victim.HasExited), exited => exited, Patience, "the consumer killed after the rows");
        }

        Assert.Equal(2, (await StatusProbe.DeadLetterRowsAsync()).Count);
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        await using (WorkerProcess.Start("Consumer", broker))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 2, Patience, "the two dead letters moved");
        }

        await using var connection = await TestDatabase.OpenAsync();
        var keys = (await connection.QueryAsync<Guid>($"SELECT letter_key FROM {TestDatabase.Schema}.dead_letter")).ToHashSet();
        var letters = await broker.DrainDeadLettersAsync();
        Assert.Equal(2, keys.Count);
        Assert.Equal(keys, letters.Select(l => Guid.Parse(System.Text.Encoding.UTF8.GetString((byte[])l.Headers["x-dead-key"]!))).ToHashSet());
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterInbox));
    }

    // Rows the producer would have claimed: committed ids, no longer in the outbox, so in flight until an outcome is recorded.
    private static async Task<IReadOnlyList<long>> ClaimedAsync(TestDatabase db, int count)
    {
        var ids = await db.InsertAsync(count);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.outbox WHERE id = ANY(@Ids)", new { Ids = ids.ToArray() });
        return ids;
    }

    private static byte[] Body(long id) => MessageSerializer.Serialize(new NotificationMessage(
        id, $"user{id}@example.com", $"Order shipped #{id}", "Hello", IsHtml: false, DateTimeOffset.UtcNow, ExpiresAt: null));

    private static BasicProperties Envelope(string? expiration) => new()
    {
        Persistent = true, ContentType = MessageSerializer.ContentType, Type = EnvelopeSerializer.EnvelopeType, Expiration = expiration,
    };

    private static BasicProperties Single() => new() { Persistent = true, ContentType = MessageSerializer.ContentType, Type = MessageSerializer.MessageType };

    // After a crash the broker either returns the message to the work queue or, past the delivery limit, dead-letters it into
    // the inbox: wait for one of the two (asked at once, the inbox could still be empty, and the next consumer would record
    // the dead letter instead of crashing, and never exit).
    private static async Task<bool> InTheInboxAsync(TestBroker broker)
    {
        var (queued, inbox) = await Eventually.WaitAsync(
            async () => (await broker.CountAsync(broker.Options.Queue), await broker.CountAsync(broker.Options.DeadLetterInbox)),
            c => c.Item1 + c.Item2 > 0, Patience, "the message back in the work queue or in the inbox");
        return inbox > 0 && queued == 0;
    }

    private static async Task<int> HandBackUntilGoneAsync(TestBroker broker)
    {
        var factory = new ConnectionFactory { Uri = broker.Options.Uri };
        await using var connection = await factory.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync();
        int handedBack = 0;
        while (await channel.BasicGetAsync(broker.Options.Queue, autoAck: false) is { } message)
        {
            await channel.BasicNackAsync(message.DeliveryTag, multiple: false, requeue: true);
            handedBack++;
        }

        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterInbox), n => n == 1, Patience, "the message in the inbox");
        return handedBack;
    }
}
