using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;

namespace Notifications.IntegrationTests.Templates;

/// <summary><c>admin templates put | list | preview</c> as the built tool, its own process, against the test database.</summary>
[Collection("services")]
public sealed class AdminTemplateTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("admin-templates-").FullName;

    [Fact]
    public async Task Templates_PutListPreview_AsAProcess()
    {
        await TestDatabase.CleanAsync();
        string text = Write("order.txt", TemplateRows.OrderText);
        string html = Write("order.html", TemplateRows.OrderHtml);

        var put1 = await Admin("templates", "put", "order", "--locale", "pt", "--subject", "Pedido {{ order }}", "--text", text, "--html", html);
        var put2 = await Admin("templates", "put", "order", "--locale", "pt", "--subject", "Pedido {{ order }} confirmado", "--text", text);
        var put3 = await Admin("templates", "put", "plain", "--locale", "en", "--subject", "Hello", "--text", Write("plain.txt", "No variables here."));
        // As a version put before migration 024: variables NULL, not checked at enqueue.
        await TemplateRows.PutAsync("legacy", "en", "Order {{ order }}", "Dear {{ customer.name }}", null);
        var list = await Admin("templates", "list");
        var preview = await Admin("templates", "preview", "order", "--locale", "pt-BR", "--data", TemplateRows.OrderData);

        Assert.True(put1.ExitCode == 0, put1.Error);
        Assert.Contains("Template 'order' (pt): version 1 stored", put1.Output, StringComparison.Ordinal);
        Assert.Contains("version 2 stored", put2.Output, StringComparison.Ordinal);
        Assert.Equal(0, list.ExitCode);
        Assert.True(put3.ExitCode == 0, put3.Error);
        Assert.Contains("3 template locale(s)", list.Output, StringComparison.Ordinal);
        Assert.Matches(@"(?m)^name\s+locale\s+version\s+versions\s+updated \(UTC\)\s+variables$", list.Output);
        Assert.Matches(@"(?m)^order\s+pt\s+2\s+2\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  customer, items, order, total$", list.Output);
        Assert.Matches(@"(?m)^plain\s+en\s+1\s+1\s+\S+ \S+  none$", list.Output);
        Assert.Matches(@"(?m)^legacy\s+en\s+1\s+1\s+\S+ \S+  \(not recorded: not checked at enqueue\)$", list.Output);
        Assert.True(preview.ExitCode == 0, preview.Error);
        Assert.Contains("Template 'order' (pt, version 2)", preview.Output, StringComparison.Ordinal);
        Assert.Contains("Subject: Pedido A-7 confirmado", preview.Output, StringComparison.Ordinal);
        Assert.Contains("Olá Zoë <Admin> & Co,\n- 2 x Pen\n- 1 x Ink <black>\nTotal: 42.50", preview.Output.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Contains("--- html ---\n(none)", preview.Output.ReplaceLineEndings("\n"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Templates_BadInput_ClearErrorAndNonZeroExit()
    {
        await TestDatabase.CleanAsync();
        string text = Write("order.txt", TemplateRows.OrderText);
        string broken = Write("broken.txt", "{% if order %}never closed");
        await Admin("templates", "put", "order", "--locale", "en", "--subject", "Order {{ order }}", "--text", text);

        var notParsing = await Admin("templates", "put", "order", "--locale", "en", "--subject", "x", "--text", broken);
        var missing = await Admin("templates", "preview", "order", "--data", """{"order":"A-7"}""");
        var unknown = await Admin("templates", "preview", "nope", "--data", "{}");
        var notObject = await Admin("templates", "preview", "order", "--data", "[1]");
        var noBody = await Admin("templates", "put", "order", "--locale", "en", "--subject", "x");
        var list = await Admin("templates", "list");

        Assert.Equal(1, notParsing.ExitCode);
        Assert.Contains("not stored: template 'order' (en, new version) does not parse: text body:", notParsing.Error, StringComparison.Ordinal);
        Assert.Equal(1, missing.ExitCode);
        Assert.Contains("text body: missing variable 'customer'", missing.Error, StringComparison.Ordinal);
        Assert.Equal(1, unknown.ExitCode);
        Assert.Contains("unknown template: 'nope'", unknown.Error, StringComparison.Ordinal);
        Assert.Equal(2, notObject.ExitCode);
        Assert.Contains("--data must be a JSON object", notObject.Error, StringComparison.Ordinal);
        Assert.Equal(2, noBody.ExitCode);
        Assert.Contains("give a body", noBody.Error, StringComparison.Ordinal);
        Assert.Matches(@"order\s+en\s+1\s+1\s", list.Output);
    }

    [Fact]
    public async Task Templates_Help_DescribesEveryCommand()
    {
        var help = await Admin("templates", "put", "--help");

        Assert.Equal(0, help.ExitCode);
        Assert.Contains("--locale", help.Output, StringComparison.Ordinal);
        Assert.Contains("--subject", help.Output, StringComparison.Ordinal);
        Assert.Contains("HTML-encoded", help.Output, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    private string Write(string name, string content)
    {
        string path = Path.Combine(_directory, name);
        File.WriteAllText(path, content);
        return path;
    }

    private static Task<(int ExitCode, string Output, string Error)> Admin(params string[] args) =>
        AdminRun.ProcessAsync([.. args, "--database", TestServices.PostgresConnectionString]);
}
