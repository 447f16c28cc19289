using System.Globalization;
using System.Net;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Audiences;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The subscribers and topics pages on a registry an app wrote: a subscriber found by id and by address, with its addresses,
/// topics and pending live rows; an address two share lists both; bad search text answers "not found"; topics a keyset page
/// at a time with their counts.
/// </summary>
[Collection("services")]
public sealed class ConsoleAudiencePageTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    [Fact]
    public async Task SubscriberSearch_ByIdAndByAddress_ShowsAddressesTopicsAndPending_ASharedAddressListsBoth()
    {
        await TestDatabase.CleanAsync();
        await RegisterAsync(async (registry, tx) =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana"));
            await registry.UpsertSubscriberAsync(tx, new Subscriber("bo"));
            await registry.AddEmailAsync(tx, "ana", "Ana@Example.test");
            await registry.AddEmailAsync(tx, "ana", "family@example.test");
            await registry.AddEmailAsync(tx, "bo", "family@example.test");
            await registry.SubscribeAsync(tx, "ana", "riders");
        });
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.live_pending (notification_id, subscriber_id, subject) VALUES (71, 'ana', 'a'), (72, 'ana', 'b'), (73, 'bo', 'c')");
        }

        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string byId = await viewer.Http.GetStringAsync("/subscribers?q=ana");
        string byAddress = await viewer.Http.GetStringAsync("/subscribers?q=" + Uri.EscapeDataString(" ANA@example.TEST "));
        string shared = await viewer.Http.GetStringAsync("/subscribers?q=family%40example.test");

        foreach (string page in new[] { byId, byAddress })
        {
            Assert.Contains("<h2 id=\"subscriber\" data-id=\"ana\">", page, StringComparison.Ordinal);
            Assert.Contains("<td>ana@example.test</td>", page, StringComparison.Ordinal);
            Assert.Contains("<p id=\"topics\">riders</p>", page, StringComparison.Ordinal);
            Assert.Contains("<strong id=\"pending\">2</strong>", page, StringComparison.Ordinal);
        }

        Assert.Contains("href=\"/subscribers?q=ana\">ana</a>", shared, StringComparison.Ordinal);
        Assert.Contains("href=\"/subscribers?q=bo\">bo</a>", shared, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(BadSearchText.Cases), MemberType = typeof(BadSearchText))]
    public async Task SubscriberSearch_BadText_AnswersNotFound(string? text)
    {
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        using var answer = await viewer.Http.GetAsync("/subscribers?q=" + Uri.EscapeDataString(BadSearchText.Of(text)));

        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Contains("<p id=\"search-message\" class=\"muted\">not found: ", await answer.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Topics_53_APageOf50ThenOneOf3_WithTheirCounts()
    {
        await TestDatabase.CleanAsync();
        await RegisterAsync(async (registry, tx) =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana"));
            await registry.UpsertSubscriberAsync(tx, new Subscriber("bo"));
            await registry.SubscribeAsync(tx, "bo", "riders");
            foreach (int n in Enumerable.Range(0, 52))
            {
                await registry.SubscribeAsync(tx, "ana", string.Create(CultureInfo.InvariantCulture, $"t{n:00}"));
            }

            await registry.SubscribeAsync(tx, "ana", "riders");
        });
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string first = await viewer.Http.GetStringAsync("/topics");
        string second = await viewer.Http.GetStringAsync("/topics?after=t48");

        // By name: riders, t00 ... t48, then t49, t50, t51.
        Assert.Equal(50, first.Split("class=\"topic\"").Length - 1);
        Assert.Matches("data-topic=\"riders\">\\s*<td>riders</td>\\s*<td class=\"n count\">2</td>", first);
        Assert.Contains("href=\"/topics?after=t48\"", first, StringComparison.Ordinal);
        Assert.Equal(["t49", "t50", "t51"], System.Text.RegularExpressions.Regex.Matches(second, "data-topic=\"([^\"]+)\"").Select(m => m.Groups[1].Value));
        Assert.Contains("id=\"no-topics\"", await viewer.Http.GetStringAsync("/topics?after=" + Uri.EscapeDataString("zz' OR 1=1 --")), StringComparison.Ordinal);
    }

    private static async Task RegisterAsync(Func<ISubscriberRegistry, System.Data.Common.DbTransaction, Task> work)
    {
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, tx => work(registry, tx));
    }
}
