using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Admin;
using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The suppression page: an operator finds an entry and removes it with a reason (kept on the removed row, as
/// <c>admin suppression remove --note</c> keeps it); a viewer's removal is 403; a search of any shape answers a page; a long
/// result comes a bounded page at a time.
/// </summary>
[Collection("services")]
public sealed class ConsoleSuppressionTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    private ISuppressionStore Store => fixture.Console.App.Services.GetRequiredService<AdminContext>().Suppression;

    [Fact]
    public async Task OperatorRemove_WithReason_EntryGoneAndReasonKept()
    {
        string key = Unique("remove");
        var before = DateTimeOffset.UtcNow.AddMinutes(-1);
        await Store.AddAsync(key, SuppressionReasons.Complaint, SuppressionReasons.AllScope, "complained", CancellationToken.None);
        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);
        string page = await @operator.Http.GetStringAsync("/suppression?q=" + Uri.EscapeDataString(key[..12]));
        Assert.Contains(key, page);

        using var removed = await @operator.Http.PostAsync("/suppression?handler=Remove", ConsoleClient.Form(
            ("__RequestVerificationToken", await @operator.TokenAsync("/suppression")), ("key", key), ("reason", "fixed address")));

        Assert.Equal(HttpStatusCode.Redirect, removed.StatusCode);
        Assert.Empty(await Store.FindAsync([key], CancellationToken.None));
        var tombstone = await Tombstone(key, before);
        Assert.NotNull(tombstone.RemovedAt);
        Assert.Equal($"fixed address (by {OidcProviderProcess.Operator.Name}, console)", tombstone.Detail);
        Assert.Contains($"Removed {key} from the suppression list", await @operator.Http.GetStringAsync(removed.Headers.Location!.OriginalString));
    }

    [Fact]
    public async Task ViewerRemove_Is403_EntryStays()
    {
        string key = Unique("viewer");
        await Store.AddAsync(key, SuppressionReasons.Manual, SuppressionReasons.BulkScope, null, CancellationToken.None);
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);
        Assert.Contains(key, await viewer.Http.GetStringAsync("/suppression?exact=true&q=" + Uri.EscapeDataString(key)));

        using var refused = await viewer.Http.PostAsync("/suppression?handler=Remove", ConsoleClient.Form(
            ("__RequestVerificationToken", await viewer.TokenAsync("/suppression")), ("key", key), ("reason", "viewer tries")));

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Single(await Store.FindAsync([key], CancellationToken.None));
    }

    [Theory]
    [InlineData("' OR 1=1; DROP TABLE suppression; --")]
    [InlineData("%")]
    [InlineData("_")]
    [InlineData("[a-z]")]
    [InlineData("\\")]
    [InlineData("\0\u0001\r\n\u001b[31m")]
    [InlineData("\ud800")]
    [InlineData("LONG")]
    public async Task BadSearch_AnyShape_AnswersNotFound(string typed)
    {
        // An entry in force, so that a wildcard taken as one ('%' matching every key) would find it and fail the test.
        await Store.AddAsync(Unique("present"), SuppressionReasons.Manual, SuppressionReasons.BulkScope, null, CancellationToken.None);
        string search = typed == "LONG" ? new string('a', 10 * 1024) : typed;
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        foreach (string exact in new[] { "false", "true" })
        {
            using var response = await viewer.Http.GetAsync($"/suppression?exact={exact}&q={Uri.EscapeDataString(search)}&after={Uri.EscapeDataString(search)}");

            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Contains("id=\"not-found\"", await response.Content.ReadAsStringAsync());
        }
    }

    [Fact]
    public async Task Search_ManyMatches_BoundedPagesInKeyOrder()
    {
        string prefix = Unique("page")[..^"@example.com".Length];
        var keys = Enumerable.Range(0, SuppressionOperations.PageSize + 3).Select(i => $"{prefix}-{i:D3}@example.com").ToList();
        foreach (string key in keys)
        {
            await Store.AddAsync(key, SuppressionReasons.Manual, SuppressionReasons.BulkScope, null, CancellationToken.None);
        }

        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);
        string first = await viewer.Http.GetStringAsync("/suppression?q=" + Uri.EscapeDataString(prefix));
        var next = System.Text.RegularExpressions.Regex.Match(first, "id=\"next\" href=\"([^\"]+)\"");
        string second = await viewer.Http.GetStringAsync(WebUtility.HtmlDecode(next.Groups[1].Value));

        Assert.Equal(keys.Take(SuppressionOperations.PageSize), Shown(first, prefix));
        Assert.Equal(keys.Skip(SuppressionOperations.PageSize), Shown(second, prefix));
        Assert.DoesNotContain("id=\"next\"", second);
    }

    private static string Unique(string what) => $"console-{what}-{Guid.NewGuid():N}@example.com";

    private static List<string> Shown(string html, string prefix) =>
        System.Text.RegularExpressions.Regex.Matches(html, $"<code>({System.Text.RegularExpressions.Regex.Escape(prefix)}[^<]*)</code>").Select(m => m.Groups[1].Value).ToList();

    private async Task<SuppressionEntry> Tombstone(string key, DateTimeOffset since)
    {
        await foreach (var row in Store.ChangesSinceAsync(since, CancellationToken.None))
        {
            if (row.Address == key)
            {
                return row;
            }
        }

        throw new InvalidOperationException($"no row for {key}");
    }
}
