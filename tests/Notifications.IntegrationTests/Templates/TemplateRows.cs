using Dapper;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Templates;

/// <summary>Templates and templated rows written straight to the test database (also what the tools refuse to write).</summary>
internal static class TemplateRows
{
    public const string OrderText = "Olá {{ customer.name }},\n{% for item in items %}- {{ item.qty }} x {{ item.name }}\n{% endfor %}Total: {{ total }}\n";

    public const string OrderHtml = "<p>Hello {{ customer.name }},</p><ul>{% for item in items %}<li>{{ item.qty }} x {{ item.name }}</li>{% endfor %}</ul>";

    public const string OrderData = """
        {"order":"A-7","customer":{"name":"Zoë <Admin> & Co"},"items":[{"qty":2,"name":"Pen"},{"qty":1,"name":"Ink <black>"}],"total":"42.50"}
        """;

    /// <summary>Adds version (newest + 1) of a template as given, without the parse check of <c>admin templates put</c>.</summary>
    public static async Task PutAsync(string name, string locale, string subject, string? text, string? html)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            INSERT INTO {TestDatabase.Schema}.template (name, locale, version, subject, text_body, html_body)
            SELECT @name, @locale, COALESCE(max(version), 0) + 1, @subject, @text, @html
            FROM {TestDatabase.Schema}.template WHERE name = @name AND locale = @locale
            """, new { name, locale, subject, text, html });
    }

    /// <summary>Inserts a templated row as given; returns its id.</summary>
    public static async Task<long> InsertAsync(string recipient, string templateName, string data, string? locale = null)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, template_name, template_data, locale) VALUES (@recipient, @templateName, @data, @locale) RETURNING id",
            new { recipient, templateName, data, locale });
    }
}
