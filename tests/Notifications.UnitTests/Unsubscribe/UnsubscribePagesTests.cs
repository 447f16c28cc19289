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
