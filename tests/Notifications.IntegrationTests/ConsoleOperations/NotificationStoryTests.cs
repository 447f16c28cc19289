using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Data.Operations;

namespace Notifications.IntegrationTests.ConsoleOperations;

/// <summary>One notification's story and the search that finds it, on the real database (as the admin role's login).</summary>
[Collection("services")]
public sealed class NotificationStoryTests
{
    private const string TraceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    [Fact]
    public async Task Read_WaitingRowWithTraceparent_TellsInsertedWithRecipientAndTraceId()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        long id = await InsertAsync("ana@example.com", TraceParent);
        await using var admin = DeadLetterSeed.Admin(broker);

        var story = await admin.Story.ReadAsync(id, 10, CancellationToken.None);

        Assert.Equal("waiting", story.Status.State);
        Assert.Equal("4bf92f3577b34da6a3ce929d0e0e4736", story.TraceId);
        Assert.Equal("ana@example.com", story.Recipient);
        var step = Assert.Single(story.Steps);
        Assert.Equal("inserted", step.Step);
        Assert.Contains("email to ana@example.com", step.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_SentOnTheThirdAttempt_TellsClaimedAttemptsAndDeliveredAndWhatIsNotKept()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        long id = await InsertAsync("bo@example.com", null);
        await ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.outbox WHERE id = @Id; INSERT INTO {TestDatabase.Schema}.delivery_log (notification_id, status, attempts) VALUES (@Id, 'sent', 3)", id);
        await using var admin = DeadLetterSeed.Admin(broker);

        var story = await admin.Story.ReadAsync(id, 10, CancellationToken.None);

        Assert.Equal("sent", story.Status.State);
        Assert.Equal(["claimed and published", "attempts", "delivered"], story.Steps.Select(s => s.Step));
        Assert.Contains("2 failed attempt(s)", story.Steps[1].Detail, StringComparison.Ordinal);
        Assert.Equal("sent on attempt 3", story.Steps[2].Detail);
        Assert.Null(story.TraceId);
        Assert.Contains(story.NotKept, n => n.StartsWith("the trace id of one not sent", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Read_SentThenBounced_TellsTheBounceAfterDeliveredWithHowLongAfter()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        long id = await InsertAsync("gone@example.com", null);
        await ExecuteAsync($"""
            DELETE FROM {TestDatabase.Schema}.outbox WHERE id = @Id;
            INSERT INTO {TestDatabase.Schema}.delivery_log (notification_id, status, attempts, updated_at) VALUES (@Id, 'sent', 1, now() - interval '3 minutes');
            INSERT INTO {TestDatabase.Schema}.notification_outcome (notification_id, outcome, recipient, status, diagnostic)
            VALUES (@Id, 'bounced', 'gone@example.com', '5.1.1', '550 5.1.1 user unknown')
            """, id);
        await using var admin = DeadLetterSeed.Admin(broker);

        var story = await admin.Story.ReadAsync(id, 10, CancellationToken.None);

        Assert.Equal("bounced", story.Status.State);
        Assert.Equal(["claimed and published", "delivered", "bounced"], story.Steps.Select(s => s.Step));
        Assert.Equal("bounced 3 min after it was accepted: 550 5.1.1 user unknown (to gone@example.com, status 5.1.1)", story.Steps[2].Detail);
    }

    [Fact]
    public async Task ShowCommand_DeadLettered_PrintsTheStatusThenTheStoryWithItsGroup()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await DeadLetterSeed.PublishAsync(broker, [4242], "smtp permanent failure 550: 5.1.1 mailbox unknown");

        var (exit, output) = await StatusProbe.ShowAsync(broker, 4242);

        Assert.Equal(0, exit);
        Assert.Contains("state:       dead_lettered", output, StringComparison.Ordinal);
        Assert.Matches(@"story:\n\s+\(time not kept\)\s+claimed and published\s+.*\n\s+\d{4}-\d\d-\d\d \S+\s+dead-lettered\s+after 5 attempt\(s\): smtp permanent failure 550: 5\.1\.1 mailbox unknown \(notification 4242, user4242@example\.com\) \(group: smtp permanent failure #: #\.#\.# mailbox unknown \(notification #, <address>\)\)", output.ReplaceLineEndings("\n"));
    }

    [Fact]
    public async Task Find_ByRecipient_PagesNewestFirstWithACursor()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = new List<long>();
        for (int i = 0; i < 5; i++)
        {
            ids.Add(await InsertAsync("carla@example.com", null));
        }

        await InsertAsync("someone.else@example.com", null);
        await using var admin = DeadLetterSeed.Admin(broker);

        var first = await admin.Story.FindAsync("carla@example.com", null, null, 2, CancellationToken.None);
        var second = await admin.Story.FindAsync("carla@example.com", null, first.Next, 2, CancellationToken.None);
        var last = await admin.Story.FindAsync("carla@example.com", NotificationSearchKind.Recipient, second.Next, 2, CancellationToken.None);

        Assert.Equal([ids[4], ids[3]], first.Hits.Select(h => h.NotificationId));
        Assert.Equal([ids[2], ids[1]], second.Hits.Select(h => h.NotificationId));
        Assert.Equal([ids[0]], last.Hits.Select(h => h.NotificationId));
        Assert.Null(last.Next);
        Assert.All(first.Hits, h => Assert.Equal("outbox", h.Source));
    }

    [Fact]
    public async Task Find_ByIdempotencyKeySubscriberAndId_FindsEachWhereItIs()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        long keyed = await InsertAsync("dan@example.com", null);
        await ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.idempotency_key (idempotency_key, notification_id) VALUES ('order-shipped:77', @Id)", keyed);
        long delivery = await SeedFanOutDeliveryAsync("erin-7", "erin@example.com");
        await using var admin = DeadLetterSeed.Admin(broker);

        var byKey = await admin.Story.FindAsync("order-shipped:77", null, null, 20, CancellationToken.None);
        var bySubscriber = await admin.Story.FindAsync("erin-7", NotificationSearchKind.Subscriber, null, 20, CancellationToken.None);
        var byAddress = await admin.Story.FindAsync("erin@example.com", null, null, 20, CancellationToken.None);
        var byId = await admin.Story.FindAsync(keyed.ToString(System.Globalization.CultureInfo.InvariantCulture), null, null, 20, CancellationToken.None);
        var story = await admin.Story.ReadAsync(delivery, 10, CancellationToken.None);

        Assert.Equal(new NotificationHit(keyed, "key"), Assert.Single(byKey.Hits));
        Assert.Equal(new NotificationHit(delivery, "delivery"), Assert.Single(bySubscriber.Hits));
        Assert.Equal(new NotificationHit(delivery, "delivery"), Assert.Single(byAddress.Hits));
        Assert.Equal(new NotificationHit(keyed, "id"), Assert.Single(byId.Hits));
        Assert.Equal("published", story.Steps[0].Step);
        Assert.Contains("to subscriber erin-7, email erin@example.com", story.Steps[0].Detail, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", "give a notification id")]
    [InlineData("   ", "give a notification id")]
    [InlineData("'; DROP TABLE notifications.outbox; --", "not found")]
    [InlineData("%", "not found")]
    [InlineData("a\0b", "not found: the text holds a NUL")]
    [InlineData("\u001b[31mred\u0007", "not found")]
    [InlineData("subscriber:' OR '1'='1", "not found")]
    [InlineData("99999999999999999999999", "not found")]
    public async Task Find_BadInput_AnswersWithAMessageNeverAnException(string text, string expected)
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await InsertAsync("frank@example.com", null);
        await using var admin = DeadLetterSeed.Admin(broker);

        var result = await admin.Story.FindAsync(text, null, null, 20, CancellationToken.None);

        Assert.Empty(result.Hits);
        Assert.StartsWith(expected, result.Message, StringComparison.Ordinal);
        Assert.Equal(1, await CountOutboxAsync());
    }

    [Fact]
    public async Task Find_LoneSurrogate_AnswersNotFoundWithoutAQuery()
    {
        await using var broker = await TestBroker.CreateAsync();
        await using var admin = DeadLetterSeed.Admin(broker);

        var result = await admin.Story.FindAsync("ana" + (char)0xD800, null, null, 20, CancellationToken.None);

        Assert.Empty(result.Hits);
        Assert.StartsWith("not found: the text holds a NUL or a broken character", result.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task FindCommand_TenKilobytesOfText_ExitsOneWithNotFound()
    {
        await using var broker = await TestBroker.CreateAsync();

        var (exit, output, error) = await Operations.AdminRun.InProcessAsync(broker, "", "find", new string('x', 10_240));

        Assert.True(exit == 1, error);
        Assert.StartsWith("not found: the text is 10240 characters", output, StringComparison.Ordinal);
    }

    private static async Task<long> InsertAsync(string recipient, string? traceParent)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, traceparent) VALUES (@Recipient, 'Hi', 'Hello', @TraceParent) RETURNING id",
            new { Recipient = recipient, TraceParent = traceParent });
    }

    private static async Task ExecuteAsync(string sql, long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(sql, new { Id = id });
    }

    private static async Task<int> CountOutboxAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {TestDatabase.Schema}.outbox");
    }

    // A topic row's fan-out job, done, with one delivery to a subscriber's email address (as the producer's fan-out writes them).
    private static async Task<long> SeedFanOutDeliveryAsync(string subscriber, string address)
    {
        await using var connection = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        return await connection.ExecuteScalarAsync<long>($"""
            WITH b AS (INSERT INTO {s}.subscriber (external_id) VALUES (@Subscriber) RETURNING id),
                 j AS (INSERT INTO {s}.fanout_job (id, audience, channels, parent, state, published, finished_at)
                       VALUES (900001, 'topic:sales', 'email', @Parent, 'done', 1, now()) RETURNING id)
            INSERT INTO {s}.audience_delivery (parent_id, subscriber_id, channel, address, outcome)
            SELECT j.id, b.id, 'email', @Address, 'published' FROM b, j RETURNING id
            """, new { Subscriber = subscriber, Address = address, Parent = "{}" });
    }
}
