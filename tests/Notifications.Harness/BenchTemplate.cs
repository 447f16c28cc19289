using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// The order-confirmation template of <c>scripts/bench run --template</c> and of TemplateBenchmarks (linked there): a
/// subject, a text and an HTML body with a loop over three items, about the size of the prepared rows' message.
/// </summary>
internal static class BenchTemplate
{
    public const string Name = "bench-order-confirmation";

    public const string Locale = "en";

    public const string Subject = "Your order #{{ order.number }} has shipped";

    public const string Text = """
        Hello {{ customer.name }},

        order {{ order.number }} is on its way:
        {% for item in items %}- {{ item.qty }} x {{ item.name }}  {{ item.price }}
        {% endfor %}Total: {{ order.total }}
        """;

    public const string Html = """
        <p>Hello {{ customer.name }},</p>
        <p>order {{ order.number }} is on its way:</p>
        <table>{% for item in items %}<tr><td>{{ item.qty }}</td><td>{{ item.name }}</td><td>{{ item.price }}</td></tr>{% endfor %}</table>
        <p>Total: {{ order.total }}</p>
        """;

    /// <summary>
    /// The plain template of <c>scripts/bench run --template-plain</c>: it renders exactly the prepared rows' subject and text
    /// body (<c>BenchDatabase.Row</c>), so the message at the server is the same and only the rendering differs.
    /// </summary>
    public const string PlainName = "bench-order-plain";

    public const string PlainSubject = "Your order #{{ order.number }} has shipped";

    public const string PlainText = "Hello,\n\norder {{ order.number }} is on its way.\n";

    /// <summary>The data of notification <paramref name="n"/>: a JSON object.</summary>
    public static string Data(long n) => string.Create(CultureInfo.InvariantCulture, $$"""
        {"order":{"number":{{n}},"total":"57.40"},"customer":{"name":"Customer {{n}}"},"items":[{"qty":2,"name":"Notebook A5","price":"9.90"},{"qty":1,"name":"Fountain pen <fine>","price":"29.00"},{"qty":3,"name":"Ink & cartridges","price":"2.87"}]}
        """);
}
