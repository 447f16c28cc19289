using System.Net;
using Notifications.IntegrationTests.ConsoleOperations;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// A group's page and its selection: the letters with a box each; two operators requeueing the same ticked letters queue a job
/// each and every letter reaches the work queue once; a viewer's POST is 403; bad text for the group answers a page.
/// </summary>
[Collection("services")]
public sealed class ConsoleDeadLetterSelectionTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    [Fact]
    public async Task TwoOperatorsRequeueTheSameSelection_EachLetterInTheWorkQueueOnce_TheOthersStay()
    {
        var broker = fixture.Console.Broker;
        await DeadLetterSeed.SeedTransientAsync(broker, Enumerable.Range(1, 8).Select(i => (long)i));
        using var first = new ConsoleClient(fixture.Console);
        using var second = new ConsoleClient(fixture.Console);
        await first.SignInWithProviderAsync(OidcProviderProcess.Operator);
        using var signedIn = await second.SignInWithPasswordAsync(ConsoleHost.BootstrapUser, fixture.Console.BootstrapPassword);
        Assert.Equal(HttpStatusCode.Redirect, signedIn.StatusCode);
        string html = await first.Http.GetStringAsync(GroupPage);
        Assert.Equal(8, CountOf(html, "name=\"ids\""));
        Assert.Contains("name=\"ids\" value=\"3\"", html, StringComparison.Ordinal);
        (string, string)[] selection = [("ids", "2"), ("ids", "4"), ("ids", "6"), ("ids", "4")];

        // Both tokens are read before either posts: the two operators look at the same page.
        string firstToken = await first.TokenAsync(GroupPage), secondToken = await second.TokenAsync(GroupPage);
        using var one = await first.Http.PostAsync(GroupPage + "&handler=RequeueSelected", ConsoleClient.Form([("__RequestVerificationToken", firstToken), .. selection]));
        using var two = await second.Http.PostAsync(GroupPage + "&handler=RequeueSelected", ConsoleClient.Form([("__RequestVerificationToken", secondToken), .. selection]));

        foreach (var (client, posted) in new[] { (first, one), (second, two) })
        {
            Assert.Equal(HttpStatusCode.Redirect, posted.StatusCode);
            string job = posted.Headers.Location!.OriginalString;
            Assert.Matches(@"^/jobs/\d+$", job);
            await Eventually.WaitAsync(() => client.Http.GetStringAsync(job + "?handler=Progress"),
                p => p.Contains("<strong id=\"job-state\">done</strong>", StringComparison.Ordinal), TimeSpan.FromSeconds(60), "the job done");
        }

        var arrivals = await DeadLetterSeed.DrainWorkQueueAsync(broker);
        Assert.Equal([2L, 4L, 6L], arrivals.Keys.Order());
        Assert.All(arrivals, pair => Assert.Equal(1, pair.Value));
        Assert.Equal([1L, 3L, 5L, 7L, 8L], (await DeadLetterSeed.RowsLeftAsync()).Order());
    }

    [Fact]
    public async Task ViewerPost_RequeueSelected_Is403_AndSeesNoBoxes()
    {
        await DeadLetterSeed.SeedTransientAsync(fixture.Console.Broker, [11, 12]);
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);
        string html = await viewer.Http.GetStringAsync(GroupPage);
        Assert.Contains("data-id=\"11\"", html, StringComparison.Ordinal);
        Assert.DoesNotContain("name=\"ids\"", html, StringComparison.Ordinal);

        using var refused = await viewer.Http.PostAsync(GroupPage + "&handler=RequeueSelected",
            ConsoleClient.Form(("__RequestVerificationToken", await viewer.TokenAsync("/dead-letters")), ("ids", "11")));

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Contains("No jobs", await viewer.Http.GetStringAsync("/jobs"), StringComparison.Ordinal);
        Assert.Equal([11L, 12L], (await DeadLetterSeed.RowsLeftAsync()).Order());
    }

    [Theory]
    [MemberData(nameof(BadSearchText.Cases), MemberType = typeof(BadSearchText))]
    public async Task GroupPage_BadReasonOrCursor_AnswersAPage(string? reason)
    {
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);
        string text = BadSearchText.Of(reason);

        using var answer = await viewer.Http.GetAsync($"/dead-letters/group?reason={Uri.EscapeDataString(text)}&before=yesterday%27--&beforeId=-1");

        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Contains("id=\"no-letters\"", await answer.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    private static readonly string GroupPage = "/dead-letters/group?reason=" + Uri.EscapeDataString(DeadLetterSeed.TransientGroup);

    private static int CountOf(string text, string part) => (text.Length - text.Replace(part, "", StringComparison.Ordinal).Length) / part.Length;
}
