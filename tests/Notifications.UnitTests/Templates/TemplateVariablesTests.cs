using Notifications.Shared.Templates;

namespace Notifications.UnitTests.Templates;

/// <summary>The top-level variables a template uses, as <c>admin templates put</c> records them for the check at enqueue.</summary>
public sealed class TemplateVariablesTests
{
    private readonly TemplateRenderer _renderer = new();

    [Theory]
    [InlineData("Hello {{ name }}", "name")]
    [InlineData("Total {{ order.total }} for {{ order.customer.name }}", "order")]
    [InlineData("{{ items[0].sku }} {{ items.size }}", "items")]
    [InlineData("{{ total | round: digits | prepend: currency }}", "currency,digits,total")]
    [InlineData("{% for item in items limit: max %}{{ item.name }} {{ forloop.index }}{% endfor %}", "items,max")]
    [InlineData("{% tablerow cell in cells %}{{ cell }} {{ tablerowloop.col }}{% endtablerow %}", "cells")]
    [InlineData("{% assign t = order.total | times: rate %}{{ t }}", "order,rate")]
    [InlineData("{% capture greeting %}Hi {{ name }}{% endcapture %}{{ greeting }}", "name")]
    [InlineData("{% for i in items %}{% if i.ok %}{% assign x = i.a %}{% capture y %}{{ x }}{% endcapture %}{% endif %}{{ y }}{% endfor %}", "items")]
    [InlineData("{% increment n %}{% decrement m %}", "")]
    [InlineData("{% if vip %}{{ discount }}{% elsif coupon %}{{ coupon.code }}{% else %}-{% endif %}", "coupon,discount,vip")]
    [InlineData("{% unless a == b %}{{ c }}{% endunless %}{% case kind %}{% when 'x' %}{{ d }}{% endcase %}", "a,b,c,d,kind")]
    [InlineData("{% for i in (1..count) %}{{ i }}{% endfor %}", "count")]
    [InlineData("No variables at all, {{ 'literal' | upcase }}", "")]
    public void Of_Body_TopLevelNamesWithoutTheTemplatesOwn(string body, string expected)
    {
        var compiled = _renderer.Compile(new TemplateVersion("t", "en", 1, "Subject", body, null, DateTimeOffset.UnixEpoch));

        Assert.Equal(expected.Split(',', StringSplitOptions.RemoveEmptyEntries), TemplateVariables.Of(compiled));
    }

    [Fact]
    public void Of_SubjectTextAndHtml_UnionSortedOnce()
    {
        var compiled = _renderer.Compile(new TemplateVersion(
            "t", "en", 1, "Order {{ order.number }}", "Hi {{ customer.name }}, {{ order.total }}", "<p>{{ customer.name }} {{ footer }}</p>", DateTimeOffset.UnixEpoch));

        Assert.Equal(["customer", "footer", "order"], TemplateVariables.Of(compiled));
    }

    [Fact]
    public void Column_Names_JsonArray()
    {
        Assert.Equal("""["customer","order"]""", TemplateVariables.Column(["customer", "order"]));
        Assert.Equal("[]", TemplateVariables.Column([]));
    }
}
