using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Admin;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The templates page: a viewer previews a template with sample data in a locale, rendered as the consumer renders it (the
/// locale's version, the data's values encoded: a value that is markup never reaches the page as markup); data that is not a
/// JSON object, an unknown template or a name of any shape answers the page with the reason.
/// </summary>
[Collection("services")]
public sealed class ConsoleTemplateTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    private const string Markup = "<script>alert(1)</script>";

    [Fact]
    public async Task Preview_PerLocale_RenderedWithTheDataEncoded()
    {
        string name = $"console-{Guid.NewGuid():N}";
        var templates = fixture.Console.App.Services.GetRequiredService<AdminContext>().Templates;
        await templates.PutAsync(name, "en", "Hello {{ who }}", "Hi {{ who }}", "<p>Hi <b>{{ who }}</b></p>", null, CancellationToken.None);
        await templates.PutAsync(name, "pt", "Olá {{ who }}", "Oi {{ who }}", "<p>Oi <b>{{ who }}</b></p>", null, CancellationToken.None);
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string listed = await viewer.Http.GetStringAsync("/templates");
        string page = await viewer.Http.GetStringAsync(
            $"/templates?name={name}&locale=pt-BR&data={Uri.EscapeDataString($"{{\"who\":\"{Markup}\"}}")}");

        Assert.Contains($"<code>{name}</code>", listed);
        Assert.Contains($"{name} (pt, version 1)", page);
        Assert.DoesNotContain(Markup, page);
        string subject = System.Text.RegularExpressions.Regex.Match(page, "<span id=\"subject\">([^<]*)</span>").Groups[1].Value;
        Assert.Equal($"Olá {Markup}", WebUtility.HtmlDecode(subject));
        Assert.Contains("<iframe id=\"html\" sandbox=\"\" srcdoc=\"&lt;p&gt;Oi &lt;b&gt;", page);
    }

    [Theory]
    [InlineData("known", "[1, 2]", "the data must be a JSON object")]
    [InlineData("known", "{not json", "the data must be a JSON object")]
    [InlineData("' OR 1=1; --", "{}", "unknown template")]
    [InlineData("\0\u0001", "{}", "unknown template")]
    [InlineData("LONG", "{}", "unknown template")]
    public async Task Preview_BadInput_AnswersThePageWithTheReason(string name, string data, string reason)
    {
        string template = name switch { "known" => $"console-{Guid.NewGuid():N}", "LONG" => new string('t', 10 * 1024), _ => name };
        if (name == "known")
        {
            await fixture.Console.App.Services.GetRequiredService<AdminContext>().Templates
                .PutAsync(template, "en", "Hello", "Hi", null, null, CancellationToken.None);
        }

        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);
        using var response = await viewer.Http.GetAsync($"/templates?name={Uri.EscapeDataString(template)}&data={Uri.EscapeDataString(data)}");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Matches($"<p id=\"preview-error\" class=\"error\">{reason}", await response.Content.ReadAsStringAsync());
    }
}
