using Notifications.Shared.Templates;

namespace Notifications.UnitTests.Templates;

public sealed class TemplateRendererTests
{
    private readonly TemplateRenderer _renderer = new();

    [Fact]
    public async Task RenderAsync_OrderConfirmation_RendersSubjectTextAndHtmlWithTheLoop()
    {
        var rendered = await _renderer.RenderAsync(_renderer.Compile(OrderConfirmation.Version()), OrderConfirmation.Data, CancellationToken.None);

        Assert.Equal("Order A-1042 confirmed", rendered.Subject);
        Assert.Equal("Hello Zoë <Admin> & Co,\n- 2 x Pen: 1.25\n- 1 x Ink <black>: 40.00\nTotal: 42.50\n", rendered.Text);
        Assert.Contains("<li>1 x Ink &lt;black&gt;: 40.00</li>", rendered.Html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_HtmlBody_EncodesValuesButNotLettersOrTheTemplate()
    {
        var rendered = await _renderer.RenderAsync(_renderer.Compile(OrderConfirmation.Version()), OrderConfirmation.Data, CancellationToken.None);

        // The value is encoded, the template's own markup is not, and non-ASCII letters stay letters (the mail is UTF-8).
        Assert.StartsWith("<p>Hello Zoë &lt;Admin&gt; &amp; Co,</p><ul>", rendered.Html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_RawFilter_WritesTheValueUnencoded()
    {
        var template = _renderer.Compile(OrderConfirmation.Version(html: "<div>{{ customer.name | raw }}</div>"));

        var rendered = await _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None);

        Assert.Equal("<div>Zoë <Admin> & Co</div>", rendered.Html);
    }

    [Theory]
    [InlineData("{{ missing }}", "missing variable 'missing'")]
    [InlineData("{{ customer.email }}", "missing variable 'customer.email'")]
    [InlineData("{% for item in items %}{{ item.sku }}{% endfor %}", "missing variable 'items[0].sku'")]
    [InlineData("{% if gift %}yes{% endif %}", "missing variable 'gift'")]
    public async Task RenderAsync_MissingVariable_ThrowsNamingItsPath(string text, string expected)
    {
        var template = _renderer.Compile(OrderConfirmation.Version(text: text));

        var error = await Assert.ThrowsAsync<TemplateException>(() => _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.Contains("'order-confirmation' (en, version 1): text body", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_NullValue_IsPresentAndRendersEmpty()
    {
        var template = _renderer.Compile(OrderConfirmation.Version(text: "[{{ coupon }}]{% if coupon %}x{% endif %}"));

        var rendered = await _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None);

        Assert.Equal("[]", rendered.Text);
    }

    [Theory]
    [InlineData("[1,2]", "not a JSON object but an array")]
    [InlineData("\"text\"", "not a JSON object but a string")]
    [InlineData("{not json", "template data is not JSON")]
    public async Task RenderAsync_DataNotAnObject_Throws(string data, string expected)
    {
        var template = _renderer.Compile(OrderConfirmation.Version());

        var error = await Assert.ThrowsAsync<TemplateException>(() => _renderer.RenderAsync(template, data, CancellationToken.None));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Compile_TemplateThatDoesNotParse_ThrowsNamingThePart()
    {
        var error = Assert.Throws<TemplateException>(() => _renderer.Compile(OrderConfirmation.Version(html: "<p>{% for item in items %}")));

        Assert.Contains("'order-confirmation' (en, version 1) does not parse: HTML body:", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_FilterFails_ThrowsRenderFailed()
    {
        var template = _renderer.Compile(OrderConfirmation.Version(text: "{{ items.size | divided_by: 0 }}"));

        var error = await Assert.ThrowsAsync<TemplateException>(() => _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None));

        Assert.Contains("text body: render failed: DivideByZeroException", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_UnknownFilter_ThrowsRenderFailed()
    {
        var template = _renderer.Compile(OrderConfirmation.Version(text: "{{ order.number | shout }}"));

        var error = await Assert.ThrowsAsync<TemplateException>(() => _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None));

        Assert.Contains("render failed", error.Message, StringComparison.Ordinal);
        Assert.Contains("shout", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_LoopOverAHugeRange_EndsInARenderError()
    {
        var template = _renderer.Compile(OrderConfirmation.Version(text: "{% for i in (1..100000000) %}{{ i }}{% endfor %}"));

        var error = await Assert.ThrowsAsync<TemplateException>(() => _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None));

        Assert.Contains("text body: render failed: more than 100000 steps", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RenderAsync_TemplateWithoutTextBody_RendersHtmlOnly()
    {
        var template = _renderer.Compile(OrderConfirmation.Version() with { TextBody = null });

        var rendered = await _renderer.RenderAsync(template, OrderConfirmation.Data, CancellationToken.None);

        Assert.Null(rendered.Text);
        Assert.NotNull(rendered.Html);
    }
}
