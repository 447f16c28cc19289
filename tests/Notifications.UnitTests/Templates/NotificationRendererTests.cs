using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer.Templates;
using Notifications.Shared.Contract;
using Notifications.Shared.Templates;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Templates;

public sealed class NotificationRendererTests
{
    private readonly InMemoryTemplateStore _store = new();
    private readonly NotificationRenderer _renderer;

    public NotificationRendererTests()
    {
        _store.Add(OrderConfirmation.Version());
        _store.Add(OrderConfirmation.Version(locale: "pt", subject: "Pedido {{ order.number }} confirmado", html: null) with { HtmlBody = null });
        var options = new TemplatesOptions();
        var renderer = new TemplateRenderer();
        var cache = new TemplateCache(_store, renderer, options, new ManualTime(DateTimeOffset.UnixEpoch), NullLogger<TemplateCache>.Instance);
        _renderer = new NotificationRenderer(cache, renderer, options);
    }

    [Fact]
    public async Task PrepareAsync_Templated_RendersTextWithAnHtmlAlternative()
    {
        var (email, reason) = await _renderer.PrepareAsync(Templated("order-confirmation", "en-GB"), CancellationToken.None);

        Assert.Null(reason);
        Assert.Equal("Order A-1042 confirmed", email!.Subject);
        Assert.False(email.IsHtml);
        Assert.StartsWith("Hello Zoë <Admin> & Co,", email.Body, StringComparison.Ordinal);
        Assert.StartsWith("<p>Hello Zoë &lt;Admin&gt; &amp; Co,</p>", email.HtmlBody, StringComparison.Ordinal);
    }

    [Fact]
    public async Task PrepareAsync_RegionalLocale_UsesTheLanguage()
    {
        var (email, _) = await _renderer.PrepareAsync(Templated("order-confirmation", "pt-BR"), CancellationToken.None);

        Assert.Equal("Pedido A-1042 confirmado", email!.Subject);
        Assert.Null(email.HtmlBody);
    }

    [Fact]
    public async Task PrepareAsync_Prepared_PassesThroughUnrendered()
    {
        var message = new NotificationMessage(7, "a@example.com", "Hi {{ x }}", "<b>body</b>", true, DateTimeOffset.UnixEpoch, null);

        var (email, _) = await _renderer.PrepareAsync(message, CancellationToken.None);

        Assert.Equal(("Hi {{ x }}", "<b>body</b>", true), (email!.Subject, email.Body, email.IsHtml));
    }

    [Fact]
    public async Task PrepareAsync_UnknownTemplate_ReasonNamesIt()
    {
        var (email, reason) = await _renderer.PrepareAsync(Templated("no-such-template", null), CancellationToken.None);

        Assert.Null(email);
        Assert.Equal("unknown template: 'no-such-template' (no version in any locale)", reason);
    }

    [Fact]
    public async Task PrepareAsync_SubjectRenderedWithALineBreak_ReasonIsTheInvalidSubject()
    {
        var message = Templated("order-confirmation", "en") with { TemplateData = OrderConfirmation.Data.Replace("A-1042", "A\\r\\nBcc: x@evil.example", StringComparison.Ordinal) };

        var (email, reason) = await _renderer.PrepareAsync(message, CancellationToken.None);

        Assert.Null(email);
        Assert.StartsWith("template 'order-confirmation' (en, version 1) rendered an invalid subject: contains CR, LF", reason, StringComparison.Ordinal);
    }

    private static NotificationMessage Templated(string name, string? locale) =>
        new(42, "customer@example.com", null, null, false, DateTimeOffset.UnixEpoch, null)
        {
            TemplateName = name, TemplateData = OrderConfirmation.Data, Locale = locale,
        };
}
