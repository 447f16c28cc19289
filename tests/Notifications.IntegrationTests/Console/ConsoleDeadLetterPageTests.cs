using System.Net;
using Notifications.IntegrationTests.ConsoleOperations;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>The dead-letters page's group actions: an operator's requeue queues a job the console's own job service runs; a viewer's is 403.</summary>
[Collection("services")]
public sealed class ConsoleDeadLetterPageTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    [Fact]
    public async Task OperatorRequeuesGroup_TheConsoleRunsTheJobToDone_LettersInTheWorkQueueAndGroupGone()
    {
        var broker = fixture.Console.Broker;
        var ids = Enumerable.Range(1, 30).Select(i => (long)i).ToList();
        await DeadLetterSeed.SeedTransientAsync(broker, ids);
        await DeadLetterSeed.PublishAsync(broker, [901, 902], DeadLetterSeed.Invalid);
        string group = DeadLetterSeed.TransientGroup;
        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);
        Assert.Contains("try again later", await @operator.Http.GetStringAsync("/dead-letters"), StringComparison.Ordinal);

        using var posted = await @operator.Http.PostAsync("/dead-letters?handler=Requeue",
            ConsoleClient.Form(("__RequestVerificationToken", await @operator.TokenAsync("/dead-letters")), ("group", group)));

        Assert.Equal(HttpStatusCode.Redirect, posted.StatusCode);
        string jobPage = posted.Headers.Location!.OriginalString;
        Assert.Matches(@"^/jobs/\d+$", jobPage);
        string progress = await Eventually.WaitAsync(() => @operator.Http.GetStringAsync(jobPage + "?handler=Progress"),
            html => html.Contains("<strong id=\"job-state\">done</strong>", StringComparison.Ordinal), TimeSpan.FromSeconds(60), "the job done");
        Assert.Contains("<span id=\"job-percent\">100 %</span>", progress, StringComparison.Ordinal);
        string page = await @operator.Http.GetStringAsync(jobPage);
        Assert.Contains("Asked by otto", page, StringComparison.Ordinal);
        Assert.Contains($"data-refresh=\"{jobPage}?handler=Progress\"", page, StringComparison.Ordinal);
        var arrivals = await DeadLetterSeed.DrainWorkQueueAsync(broker);
        Assert.Equal(ids, arrivals.Keys.Order());
        Assert.All(arrivals, pair => Assert.Equal(1, pair.Value));
        string after = await @operator.Http.GetStringAsync("/dead-letters");
        Assert.DoesNotContain("try again later", after, StringComparison.Ordinal);
        Assert.Contains("consecutive dots", after, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ViewerPost_RequeueGroup_Is403AndQueuesNothing()
    {
        await DeadLetterSeed.CleanJobsAsync();
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        using var refused = await viewer.Http.PostAsync("/dead-letters?handler=Requeue",
            ConsoleClient.Form(("__RequestVerificationToken", await viewer.TokenAsync("/dead-letters")), ("group", "anything")));

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Contains("No jobs", await viewer.Http.GetStringAsync("/jobs"), StringComparison.Ordinal);
    }
}
