using System.Text;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.Operations;

/// <summary>The admin command line against the real broker, database and SMTP server.</summary>
[Collection("services")]
public sealed class AdminCommandTests
{
    private const string TransientReason = "gave up after 5 attempts: smtp transient failure 421: 4.3.0 try again later";
    private const string InvalidReason = "invalid recipient: empty";

    [Fact]
    public async Task Requeue_ByReason_MovesOnlyThatDeadLetterWhichIsDeliveredExactlyOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await PublishDeadLetterAsync(broker, 7001, "ok@example.com", TransientReason, attempts: 5);
        await PublishDeadLetterAsync(broker, 7002, "", InvalidReason, attempts: 1);

        var (exit, output, error) = await AdminRun.InProcessAsync(broker, "", "dead-letters", "requeue", "--reason", "TRANSIENT");

        Assert.True(exit == 0, error);
        Assert.Contains("Requeued 1 dead letter(s)", output, StringComparison.Ordinal);
        Assert.Equal(1u, await broker.CountAsync(broker.Options.Queue));
        Assert.Equal(1u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        var requeued = await PeekWorkQueueHeadersAsync(broker);
        Assert.DoesNotContain("x-attempt", requeued.Keys);
        Assert.DoesNotContain("x-dead-reason", requeued.Keys);

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(1));
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == 1, TimeSpan.FromMinutes(1), "delivery log 'sent'");
        }

        Assert.Equal(new Dictionary<long, int> { [7001] = 1 }, sink.CountByNotificationId());
        var left = Assert.Single(await broker.DrainDeadLettersAsync());
        Assert.Equal(InvalidReason, left.Reason);
    }

    [Fact]
    public async Task ListAndShow_TwoDeadLetters_ShowReasonAttemptsAndPayloadAndLeaveThemQueued()
    {
        await using var broker = await TestBroker.CreateAsync();
        await PublishDeadLetterAsync(broker, 8001, "first@example.com", TransientReason, attempts: 5);
        await PublishDeadLetterAsync(broker, 8002, "", InvalidReason, attempts: 1);

        var list = await AdminRun.InProcessAsync(broker, "", "dead-letters", "list");
        var second = await AdminRun.InProcessAsync(broker, "", "dead-letters", "show", "2");
        var byId = await AdminRun.InProcessAsync(broker, "", "dead-letters", "show", "--id", "8001");

        Assert.Equal(0, list.ExitCode);
        Assert.Contains(": 2 dead letter(s)", list.Output, StringComparison.Ordinal);
        var rows = list.Output.Split('\n').Where(l => l.Contains("8001", StringComparison.Ordinal) || l.Contains("8002", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, rows.Count);
        Assert.Matches(@"^\s+1\s+8001\s+5\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+gave up after 5 attempts", rows[0]);
        Assert.Matches(@"^\s+2\s+8002\s+1\s+.*invalid recipient: empty", rows[1]);

        Assert.Equal(0, second.ExitCode);
        Assert.Contains("notification id:  8002", second.Output, StringComparison.Ordinal);
        Assert.Contains($"reason:           {InvalidReason}", second.Output, StringComparison.Ordinal);
        Assert.Contains("attempts:         1", second.Output, StringComparison.Ordinal);
        Assert.Contains("\"recipient\": \"\"", second.Output, StringComparison.Ordinal);

        Assert.Equal(0, byId.ExitCode);
        Assert.Contains("\"recipient\": \"first@example.com\"", byId.Output, StringComparison.Ordinal);
        Assert.Equal(2u, await broker.CountAsync(broker.Options.DeadLetterQueue));
    }

    [Theory]
    [InlineData("dead-letters show", "give either a position n")]
    [InlineData("dead-letters show 0", "starts at 1")]
    [InlineData("dead-letters requeue", "choose what to requeue")]
    [InlineData("dead-letters requeue --all --id 5", "choose what to requeue")]
    [InlineData("dead-letters list --limit 0", "--limit must be at least 1")]
    [InlineData("status --window nonsense", "--window takes a positive duration")]
    [InlineData("dead-letters show abc", "abc")]
    [InlineData("dead-letters requeue --id xyz", "xyz")]
    [InlineData("purge", "Required command was not provided")]
    [InlineData("frobnicate", "Unrecognized command or argument 'frobnicate'")]
    public async Task BadArguments_ExitTwoWithAClearMessage(string command, string expected)
    {
        var (exit, output, error) = await AdminRun.ProcessAsync(command.Split(' '));

        Assert.True(exit == 2, $"exit {exit}: {output}{error}");
        Assert.Contains(expected, error, StringComparison.Ordinal);
        Assert.Contains("--help' for usage", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("dead-letters", "list")]
    [InlineData("status")]
    [InlineData("purge", "dead-letters", "--yes")]
    public async Task UnreachableBroker_ExitThreeNamingIt(params string[] command)
    {
        var (exit, output, error) = await AdminRun.ProcessAsync(
            [.. command, "--rabbitmq", "amqp://guest:guest@127.0.0.1:1/", "--database", TestServices.PostgresConnectionString]);

        Assert.True(exit == 3, $"exit {exit}: {output}{error}");
        Assert.Contains("error: RabbitMQ at 127.0.0.1:1 is unreachable", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task PurgeDeadLetters_NotConfirmed_DeletesNothingAndConfirmedDeletesAll()
    {
        await using var broker = await TestBroker.CreateAsync();
        await PublishDeadLetterAsync(broker, 9001, "a@example.com", TransientReason, attempts: 5);
        await PublishDeadLetterAsync(broker, 9002, "b@example.com", TransientReason, attempts: 5);

        var declined = await AdminRun.InProcessAsync(broker, "no\n", "purge", "dead-letters");
        Assert.Equal(1, declined.ExitCode);
        Assert.Contains("This deletes 2 dead letter(s)", declined.Output, StringComparison.Ordinal);
        Assert.Contains("Aborted: nothing was deleted", declined.Error, StringComparison.Ordinal);
        Assert.Equal(2u, await broker.CountAsync(broker.Options.DeadLetterQueue));

        var noAnswer = await AdminRun.InProcessAsync(broker, "", "purge", "dead-letters");
        Assert.Equal(1, noAnswer.ExitCode);
        Assert.Equal(2u, await broker.CountAsync(broker.Options.DeadLetterQueue));

        var confirmed = await AdminRun.InProcessAsync(broker, "yes\n", "purge", "dead-letters");
        Assert.Equal(0, confirmed.ExitCode);
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
    }

    [Fact]
    public async Task PurgeOutbox_WithYes_EmptiesTheOutboxAndStatusShowsIt()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await db.InsertAsync(3);

        var before = await AdminRun.InProcessAsync(broker, "", "status");
        var purge = await AdminRun.InProcessAsync(broker, "", "purge", "outbox", "--yes");
        var after = await AdminRun.InProcessAsync(broker, "", "status");

        Assert.True(before.ExitCode == 0, before.Error);
        Assert.Matches(@"Outbox backlog\s+3 rows", before.Output);
        Assert.Contains($"  {broker.Options.DeadLetterQueue}", before.Output, StringComparison.Ordinal);
        Assert.Equal(0, purge.ExitCode);
        Assert.Contains("Deleted 3 row(s)", purge.Output, StringComparison.Ordinal);
        Assert.Equal(0, await db.CountAsync("outbox"));
        Assert.Matches(@"Outbox backlog\s+0 rows", after.Output);
    }

    // A dead letter as the consumer's OutboundPublisher writes it: original body and headers plus the reason.
    private static async Task PublishDeadLetterAsync(TestBroker broker, long id, string recipient, string reason, int attempts)
    {
        var body = MessageSerializer.Serialize(new NotificationMessage(id, recipient, $"Order {id}", "Hello", false, DateTimeOffset.UtcNow, null));
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = MessageSerializer.ContentType,
            Headers = new Dictionary<string, object?>
            {
                ["x-attempt"] = attempts,
                ["x-dead-reason"] = Encoding.UTF8.GetBytes(reason),
                ["x-dead-attempts"] = attempts,
                ["x-dead-at"] = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(),
            },
        };
        await using var connection = await new ConnectionFactory { Uri = broker.Options.Uri }.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync(new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true));
        await channel.BasicPublishAsync(broker.Options.Exchange, broker.Options.DeadLetterQueue, mandatory: true, properties, body);
    }

    private static async Task<IDictionary<string, object?>> PeekWorkQueueHeadersAsync(TestBroker broker)
    {
        await using var connection = await new ConnectionFactory { Uri = broker.Options.Uri }.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync();
        var message = await channel.BasicGetAsync(broker.Options.Queue, autoAck: false) ?? throw new InvalidOperationException("work queue empty");
        await channel.BasicNackAsync(message.DeliveryTag, multiple: false, requeue: true);
        return message.BasicProperties.Headers ?? new Dictionary<string, object?>();
    }
}
