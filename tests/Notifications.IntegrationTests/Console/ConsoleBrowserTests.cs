using Notifications.IntegrationTests.Infrastructure;
using OpenQA.Selenium;
using OpenQA.Selenium.Support.UI;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The console in a real, headless Chromium: an operator signs in through the OpenID Connect provider's login form and sees the
/// overview; three urgent notifications inserted meanwhile appear in the urgent lane's backlog without a reload. The overview's
/// screenshot is docs/images/console-overview.png (docs/console.md shows it).
/// </summary>
[Collection("services")]
public sealed class ConsoleBrowserTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task SignInThroughProvider_Overview_UpdatesWithoutReload()
    {
        var database = await TestDatabase.CleanAsync();
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
        Assert.Equal("0", browser.FindElement(By.Id("backlog-urgent")).Text);
        // A mark on this document: a reload would make a new one without it.
        ((IJavaScriptExecutor)browser).ExecuteScript("window.notReloaded = true;");

        await database.InsertAsync(3, priority: "urgent");

        wait.Until(b => b.FindElement(By.Id("backlog-urgent")).Text == "3");
        Assert.Equal(true, ((IJavaScriptExecutor)browser).ExecuteScript("return window.notReloaded === true;"));
        Assert.Equal("3", browser.FindElement(By.Id("backlog-total")).Text);
        browser.GetScreenshot().SaveAsFile(RepositoryLayout.File("docs", "images", "console-overview.png"));
        await TestDatabase.CleanAsync();
    }
}
