using OpenQA.Selenium;
using OpenQA.Selenium.Support.UI;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// The browser client (Client.Live/browser/notifications-live.js) in a real, headless Chromium, driven by Selenium through
/// Debian's chromedriver: samples/live-page, served as an app serves it with a token it mints, shows the subscriber's
/// pending notifications and acks them (the rows go); across a gateway restart on the same port it reconnects with a fresh
/// token, shows what came meanwhile, and shows a replayed copy of one it had acked not again (and acks it again).
/// </summary>
[Collection("services")]
public sealed class LiveBrowserTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task SamplePage_ShowsAndAcks_ReconnectsAfterAGatewayRestart_NoDuplicates()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 301, 302);
        await LiveGateway.InsertAsync("bo", 901);
        await using var page = await LivePageServer.StartAsync(gateway.Key, "ana");
        using var browser = Infrastructure.HeadlessChromium.Start(Patience);
        var wait = new WebDriverWait(browser, Patience) { PollingInterval = TimeSpan.FromMilliseconds(100) };

        browser.Navigate().GoToUrl(new Uri(page.Address, "/?gateway=" + Uri.EscapeDataString(gateway.LiveUri.ToString())));

        wait.Until(b => Shown(b).Count == 2);
        Assert.Equal(["301", "302"], Shown(browser));
        Assert.Equal("Subject 301: Body 301", browser.FindElement(By.CssSelector("#notifications li[data-id='301']")).Text);
        await Infrastructure.Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.Count == 0, Patience, "the page's acks recorded");

        await gateway.StopAsync();
        wait.Until(b => b.FindElement(By.Id("state")).Text is "disconnected" or "connecting");
        await LiveGateway.InsertAsync("ana", 303);
        await LiveGateway.InsertAsync("ana", 302);   // a copy of one the page acked (as if its ack had been lost)
        await gateway.RestartAsync();

        wait.Until(b => b.FindElement(By.Id("opens")).Text == "2" && Shown(b).Contains("303"));
        await Infrastructure.Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.Count == 0, Patience, "303 acked, 302 acked again");
        Assert.Equal(["301", "302", "303"], Shown(browser));
        Assert.Equal([901L], await LiveGateway.PendingAsync("bo"));
        Assert.True(page.TokensMinted >= 2, $"a fresh token per connection: {page.TokensMinted} minted");
    }

    private static List<string?> Shown(IWebDriver browser) =>
        browser.FindElements(By.CssSelector("#notifications li")).Select(e => e.GetDomAttribute("data-id")).ToList();
}
