using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Unsubscribe;
using Notifications.Unsubscribe.Pages;

namespace Notifications.UnitTests.Unsubscribe;

/// <summary>The pages as Razor renders them: values encoded, the confirmation a one-button POST of the one-click body.</summary>
public sealed class UnsubscribePagesTests : IAsyncLifetime
{
    private readonly ServiceProvider _services = new ServiceCollection().BuildServiceProvider();
    private UnsubscribePages _pages = null!;

    public Task InitializeAsync()
    {
        _pages = new UnsubscribePages(_services, NullLoggerFactory.Instance);
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        await _pages.DisposeAsync();
        await _services.DisposeAsync();
    }

    [Fact]
    public async Task Render_ConfirmPage_OnePostFormWithTheOneClickFieldAndTheMaskedAddress()
    {
        string html = await _pages.RenderAsync<ConfirmPage>(new() { [nameof(ConfirmPage.Address)] = UnsubscribePages.Mask("reader@example.com") });

        Assert.Single(System.Text.RegularExpressions.Regex.Matches(html, "<form "));
        Assert.Contains("<form method=\"post\">", html, StringComparison.Ordinal);
        Assert.Contains("<input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">", html, StringComparison.Ordinal);
        Assert.Contains("r•••@example.com", System.Net.WebUtility.HtmlDecode(html), StringComparison.Ordinal);
        Assert.DoesNotContain("reader", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Render_CategoryOfTheMail_ConfirmAndDoneNameItBulkWithout()
    {
        // The page's text as a person reads it: tags dropped, entities decoded.
        string Decoded(string html) => System.Net.WebUtility.HtmlDecode(System.Text.RegularExpressions.Regex.Replace(html, "<[^>]*>", ""));
        var address = UnsubscribePages.Mask("reader@example.com");

        string confirm = await _pages.RenderAsync<ConfirmPage>(new() { [nameof(ConfirmPage.Address)] = address, [nameof(ConfirmPage.Category)] = "marketing" });
        string done = await _pages.RenderAsync<DonePage>(new() { [nameof(DonePage.Address)] = address, [nameof(DonePage.Category)] = "marketing" });
        string doneBulk = await _pages.RenderAsync<DonePage>(new() { [nameof(DonePage.Address)] = address });

        Assert.Contains("Stop \u201cmarketing\u201d mail to r•••@example.com?", Decoded(confirm), StringComparison.Ordinal);
        Assert.DoesNotContain("bulk mail", Decoded(confirm), StringComparison.Ordinal);
        Assert.Contains("will get no more \u201cmarketing\u201d mail from us.", Decoded(done), StringComparison.Ordinal);
        Assert.Contains("will get no more newsletters or other bulk mail from us.", Decoded(doneBulk), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Render_MarkupInAValue_Encoded()
    {
        string html = await _pages.RenderAsync<RefusedPage>(new()
        {
            [nameof(RefusedPage.Title)] = "<script>alert(1)</script>",
            [nameof(RefusedPage.Message)] = "a \"quoted\" & <b>bold</b> message",
        });

        Assert.DoesNotContain("<script>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<b>", html, StringComparison.Ordinal);
        Assert.Contains("&lt;script&gt;alert(1)&lt;/script&gt;", html, StringComparison.Ordinal);
    }
}
