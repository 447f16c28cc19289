using OpenQA.Selenium.Chrome;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Debian's chromium, headless, driven through Debian's chromedriver (scripts/setup installs both): no driver download, no sandbox
/// (root in a container). The live channel's browser test and the console's use it.
/// </summary>
internal static class HeadlessChromium
{
    public static ChromeDriver Start(TimeSpan patience)
    {
        const string Driver = "/usr/bin/chromedriver";
        const string Chromium = "/usr/bin/chromium";
        Assert.True(File.Exists(Driver) && File.Exists(Chromium), $"{Chromium} and {Driver} are needed: scripts/setup installs them (apt-get install chromium chromium-driver)");
        var service = ChromeDriverService.CreateDefaultService(Path.GetDirectoryName(Driver)!, Path.GetFileName(Driver));
        service.SuppressInitialDiagnosticInformation = true;
        service.HideCommandPromptWindow = true;
        var options = new ChromeOptions { BinaryLocation = Chromium };
        options.AddArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900");
        return new ChromeDriver(service, options, patience);
    }
}
