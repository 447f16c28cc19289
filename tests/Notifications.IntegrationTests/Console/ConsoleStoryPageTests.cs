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
