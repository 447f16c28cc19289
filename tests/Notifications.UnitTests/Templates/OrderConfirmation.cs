using Notifications.Shared.Templates;

namespace Notifications.UnitTests.Templates;

/// <summary>A typical order-confirmation template (a loop over the items) and its data, for the renderer tests.</summary>
internal static class OrderConfirmation
{
    public const string Data = """
        {"order":{"number":"A-1042","total":"42.50"},"customer":{"name":"Zoë <Admin> & Co"},
         "items":[{"name":"Pen","qty":2,"price":"1.25"},{"name":"Ink <black>","qty":1,"price":"40.00"}],"coupon":null}
        """;

    public static TemplateVersion Version(string locale = "en", int version = 1, string? subject = null, string? text = null, string? html = null) => new(
        "order-confirmation",
        locale,
        version,
        subject ?? "Order {{ order.number }} confirmed",
        text ?? "Hello {{ customer.name }},\n{% for item in items %}- {{ item.qty }} x {{ item.name }}: {{ item.price }}\n{% endfor %}Total: {{ order.total }}{{ coupon }}\n",
        html ?? "<p>Hello {{ customer.name }},</p><ul>{% for item in items %}<li>{{ item.qty }} x {{ item.name }}: {{ item.price }}</li>{% endfor %}</ul><p>Total: {{ order.total }}</p>",
        DateTimeOffset.UnixEpoch);
}
