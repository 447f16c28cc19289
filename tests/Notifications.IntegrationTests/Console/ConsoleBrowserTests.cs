using Dapper;
using Notifications.IntegrationTests.ConsoleOperations;
using Notifications.IntegrationTests.Infrastructure;
using OpenQA.Selenium;
using OpenQA.Selenium.Support.UI;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The console in a real, headless Chromium: an operator signs in through the OpenID Connect provider's login form and sees the
/// overview; three urgent notifications inserted meanwhile appear in the urgent lane's backlog without a reload. In the same
/// session it finds a dead-lettered notification by its idempotency key and reads its story, then requeues a group of 200 dead
/// letters and watches the job reach 100 %. The screenshots are docs/images/console-overview.png, console-story.png and
/// console-job.png (docs/console.md shows them).
/// </summary>
[Collection("services")]
public sealed class ConsoleBrowserTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    // A job waits for the console's job service to poll (every 2 s) and then moves 200 letters: generous, as a guard only.
    private static readonly TimeSpan JobPatience = TimeSpan.FromSeconds(120);

    [Fact]
    public async Task SignInThroughProvider_Overview_UpdatesWithoutReload_ThenAStoryAndARequeueToOneHundredPercent()
    {
        var database = await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        using var browser = HeadlessChromium.Start(Patience);
        var wait = new WebDriverWait(browser, Patience) { PollingInterval = TimeSpan.FromMilliseconds(100) };

        browser.Navigate().GoToUrl(fixture.Console.Address);
        wait.Until(b => b.Url.Contains("/signin", StringComparison.Ordinal));
        browser.FindElement(By.Id("sign-in-oidc")).Click();
        wait.Until(b => b.Url.StartsWith(fixture.Console.Provider.Authority.ToString(), StringComparison.Ordinal));
        browser.FindElement(By.Id("username")).SendKeys(OidcProviderProcess.Operator.Name);
        browser.FindElement(By.Id("password")).SendKeys(OidcProviderProcess.Operator.Password);
        browser.FindElement(By.Id("login")).Click();

        wait.Until(b => b.FindElements(By.Id("backlog-urgent")).Count == 1);
        Assert.Equal(new Uri(fixture.Console.Address, "/").ToString(), browser.Url);
        Assert.Equal("otto (operator)", browser.FindElement(By.Id("signed-in-as")).Text);
        Assert.Equal("0", TextOf(browser, "backlog-urgent"));
        // A mark on this document: a reload would make a new one without it.
        ((IJavaScriptExecutor)browser).ExecuteScript("window.notReloaded = true;");
        // The page swaps its figures in once a second; swapping them (unchanged) every few milliseconds as well makes a read that
        // could meet a swap meet one every time, where once a second it did so only now and then.
        ((IJavaScriptExecutor)browser).ExecuteScript("setInterval(() => { const f = document.getElementById('figures'); f.innerHTML = f.innerHTML; }, 1);");

        await database.InsertAsync(3, priority: "urgent");

        wait.Until(b => TextOf(b, "backlog-urgent") == "3");
        Assert.Equal(true, ((IJavaScriptExecutor)browser).ExecuteScript("return window.notReloaded === true;"));
        Assert.Equal("3", TextOf(browser, "backlog-total"));
        browser.GetScreenshot().SaveAsFile(RepositoryLayout.File("docs", "images", "console-overview.png"));

        await SeedDeadLettersAsync();
        ReadStory(browser, wait);
        RequeueGroup(browser, wait);
        await TestDatabase.CleanAsync();
    }

    // An element of a part the page swaps in is read in one script, where the element is found and read at once: found first and
    // read in a second call, it can be swapped out in between (StaleElementReferenceException).
    private static string? TextOf(IWebDriver browser, string id) =>
        (string?)((IJavaScriptExecutor)browser).ExecuteScript("const e = document.getElementById(arguments[0]); return e ? e.textContent.trim() : null;", id);

    // 200 dead letters of one group, the way the consumer leaves them; the 7th also has an idempotency key to find it by.
    private async Task SeedDeadLettersAsync()
    {
        await DeadLetterSeed.PublishAsync(fixture.Console.Broker, Enumerable.Range(1, 200).Select(i => (long)i), DeadLetterSeed.Transient);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.idempotency_key (idempotency_key, notification_id) VALUES ('password-reset:ana', 7)");
    }

    private static void ReadStory(IWebDriver browser, WebDriverWait wait)
    {
        browser.FindElement(By.LinkText("Notifications")).Click();
        wait.Until(b => b.FindElements(By.Id("q")).Count == 1);
        browser.FindElement(By.Id("q")).SendKeys("password-reset:ana");
        browser.FindElement(By.Id("find")).Click();
        wait.Until(b => b.FindElements(By.CssSelector("a.hit")).Count == 1);
        browser.FindElement(By.CssSelector("a.hit")).Click();
        wait.Until(b => b.FindElements(By.Id("state")).Count == 1);
        Assert.EndsWith("/notifications/7", browser.Url, StringComparison.Ordinal);
        Assert.Equal("dead_lettered", browser.FindElement(By.Id("state")).Text);
        Assert.Equal(["claimed and published", "dead-lettered"], browser.FindElements(By.CssSelector("tr.step")).Select(r => r.GetDomAttribute("data-step")));
        ((ITakesScreenshot)browser).GetScreenshot().SaveAsFile(RepositoryLayout.File("docs", "images", "console-story.png"));
    }

    private static void RequeueGroup(IWebDriver browser, WebDriverWait wait)
    {
        browser.FindElement(By.LinkText("Dead letters")).Click();
        wait.Until(b => b.FindElements(By.CssSelector("tr.group")).Count == 1);
        Assert.Equal("200", browser.FindElement(By.CssSelector("tr.group td.count")).Text);
        browser.FindElement(By.CssSelector("tr.group button.requeue")).Click();
        wait.Until(b => b.FindElements(By.Id("job-percent")).Count == 1);
        Assert.Matches(@"/jobs/\d+$", browser.Url);
        ((IJavaScriptExecutor)browser).ExecuteScript("window.notReloaded = true;");

        var jobWait = new WebDriverWait(browser, JobPatience) { PollingInterval = TimeSpan.FromMilliseconds(200) };
        // The page swaps its progress in once a second: an element read just as it is replaced is stale, and read again.
        jobWait.IgnoreExceptionTypes(typeof(StaleElementReferenceException));
        jobWait.Until(b => b.FindElement(By.Id("job-state")).Text == "done");

        // Done is final: the page stopped refreshing, so what it shows now stays.
        Assert.Equal(true, ((IJavaScriptExecutor)browser).ExecuteScript("return window.notReloaded === true;"));
        Assert.Equal("100 %", browser.FindElement(By.Id("job-percent")).Text);
        Assert.Equal("200", browser.FindElement(By.Id("job-done")).Text);
        ((ITakesScreenshot)browser).GetScreenshot().SaveAsFile(RepositoryLayout.File("docs", "images", "console-job.png"));
    }
}
