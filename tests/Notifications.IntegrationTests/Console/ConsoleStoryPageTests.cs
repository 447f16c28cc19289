using System.Net;
using Dapper;
using Notifications.IntegrationTests.ConsoleOperations;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>The notification pages: the search finds a notification by its idempotency key, its story shows the steps; bad search input answers a page.</summary>
[Collection("services")]
public sealed class ConsoleStoryPageTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    [Fact]
    public async Task SearchByIdempotencyKey_DeadLettered_StoryShowsItsSteps()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.PublishAsync(fixture.Console.Broker, [4711], "smtp permanent failure 550: 5.1.1 mailbox unknown");
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.idempotency_key (idempotency_key, notification_id) VALUES ('password-reset:ana', 4711)");
        }

        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string found = await viewer.Http.GetStringAsync("/notifications?q=password-reset%3Aana&kind=key");
        string story = await viewer.Http.GetStringAsync("/notifications/4711");

        Assert.Contains("href=\"/notifications/4711\"", found, StringComparison.Ordinal);
        Assert.Contains("<span id=\"state\">dead_lettered</span>", story, StringComparison.Ordinal);
        Assert.Contains("data-step=\"claimed and published\"", story, StringComparison.Ordinal);
        Assert.Contains("data-step=\"dead-lettered\"", story, StringComparison.Ordinal);
        Assert.Contains("after 5 attempt(s): smtp permanent failure 550: 5.1.1 mailbox unknown", story, StringComparison.Ordinal);
        Assert.Contains("id=\"not-kept\"", story, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Story_LiveBroadcast_ShowsItsTopicAndItsReceiptsByState()
    {
        await TestDatabase.CleanAsync();
        string s = TestDatabase.Schema;
        await using (var connection = await TestDatabase.OpenAsync())
        {
            // What the consumer and the gateways write (LiveBroadcastTests runs them for real): the broadcast, two acks, one
            // expired past its subscriber's cap.
            await connection.ExecuteAsync($"""
                INSERT INTO {s}.topic (name) VALUES ('riders');
                INSERT INTO {s}.live_broadcast (notification_id, topic_id, subject, expires_at)
                SELECT 4713, id, 'Line 4 reopened', now() + interval '1 day' FROM {s}.topic WHERE name = 'riders';
                INSERT INTO {s}.live_broadcast_receipt (notification_id, subscriber_id, acked_at) VALUES (4713, 'ana', now()), (4713, 'bo', now());
                INSERT INTO {s}.live_broadcast_receipt (notification_id, subscriber_id, expired_at) VALUES (4713, 'cy', now());
                INSERT INTO {s}.delivery_log (notification_id, status, attempts) VALUES (4713, 'sent', 1);
                """);
        }

        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string story = await viewer.Http.GetStringAsync("/notifications/4713");

        Assert.Contains("<h2>Broadcast to topic riders</h2>", story, StringComparison.Ordinal);
        Assert.Contains("<tr><td>acked</td><td class=\"n\">2</td></tr>", story, StringComparison.Ordinal);
        Assert.Contains("<tr><td>expired</td><td class=\"n\">1</td></tr>", story, StringComparison.Ordinal);
        Assert.Matches("<td>ana</td><td>acked</td>(.|\n)*<td>bo</td><td>acked</td>(.|\n)*<td>cy</td><td>expired</td>", story);
    }

    [Fact]
    public async Task Story_SentAfterAFailedAttempt_ShowsClaimedPublishedTheFailureAndTheTraceId()
    {
        await TestDatabase.CleanAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            // The rows the consumer writes (NotificationStoryPipelineTests runs them for real): the sent row with the message's
            // stamps and trace, and the failed first attempt.
            await connection.ExecuteAsync($"""
                INSERT INTO {TestDatabase.Schema}.delivery_log (notification_id, status, attempts, claimed_at, published_at, trace_id)
                VALUES (4712, 'sent', 2, now() - interval '3 seconds', now() - interval '2 seconds', '4bf92f3577b34da6a3ce929d0e0e4736');
                INSERT INTO {TestDatabase.Schema}.delivery_attempt (notification_id, attempt, reason, failed_at)
                VALUES (4712, 1, 'smtp transient failure 450: 4.2.0 mailbox busy', now() - interval '1 second');
                """);
        }

        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string story = await viewer.Http.GetStringAsync("/notifications/4712");

        Assert.Matches("data-step=\"claimed\"(.|\n)*data-step=\"published\"(.|\n)*data-step=\"attempt 1 failed\"(.|\n)*data-step=\"delivered\"", story);
        Assert.Contains("tried again: smtp transient failure 450: 4.2.0 mailbox busy", story, StringComparison.Ordinal);
        Assert.Contains("<td id=\"trace-id\">4bf92f3577b34da6a3ce929d0e0e4736</td>", story, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("'; DROP TABLE notifications.outbox; --")]
    [InlineData("a\0b")]
    [InlineData("\u001b[31mred\u0007")]
    [InlineData("99999999999999999999999")]
    [InlineData(null)]
    public async Task Search_BadText_Answers200WithNotFound(string? text)
    {
        text ??= new string('x', 10_240);
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        using var response = await viewer.Http.GetAsync("/notifications?q=" + Uri.EscapeDataString(text));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Matches("<p id=\"search-message\" class=\"muted\">not found", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Search_UnknownKind_Answers200WithNotFound()
    {
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        using var response = await viewer.Http.GetAsync("/notifications?q=ana&kind=%27%20OR%201%3D1&before=abc");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("not found: search by id, key, recipient or subscriber", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
