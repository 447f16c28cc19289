using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using Dapper;
using MimeKit;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Sending;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// The packed client as apps get it (<see cref="PackedClient"/>, packed once for the class): samples/Orders changes its
/// row and enqueues in one transaction, restores only its provider's driver; and the console app of docs/client.md works.
/// </summary>
[Collection("services")]
public sealed partial class SampleAppTests(PackedClient client) : IClassFixture<PackedClient>
{
    // A one-page PDF (what a PDF reader opens), the file the page tells the reader to put beside Program.cs.
    private static readonly byte[] Pdf = System.Text.Encoding.ASCII.GetBytes(
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        + "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

    [Fact]
    public async Task OrdersSample_BuiltFromThePackedClient_EnqueuesWithTheOrderAndRollsBackWithIt()
    {
        var db = await TestDatabase.CleanAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync("DROP TABLE IF EXISTS sample_order");
        }

        await using var app = await SampleApp.StartAsync(client, TestServices.PostgresConnectionString, TestDatabase.Schema);
        using var http = new HttpClient { BaseAddress = app.BaseAddress };

        var ado = await PlaceAsync(http, "/orders", new { Recipient = "ado@example.com", Item = "a book" });
        var adoFailed = await http.PostAsJsonAsync("/orders", new { Recipient = "ado-ghost@example.com", Item = "a book", SimulateFailure = true });
        var ef = await PlaceAsync(http, "/ef/orders", new { Recipient = "ef@example.com", Item = "a pen", IdempotencyKey = "ef-order-1" });
        var efRetried = await PlaceAsync(http, "/ef/orders", new { Recipient = "ef@example.com", Item = "a pen", IdempotencyKey = "ef-order-1" });
        var efFailed = await http.PostAsJsonAsync("/ef/orders", new { Recipient = "ef-ghost@example.com", Item = " " });
        var status = await http.GetFromJsonAsync<JsonElement>($"/notifications/{ado.NotificationId}");

        Assert.Equal(HttpStatusCode.UnprocessableEntity, adoFailed.StatusCode);
        Assert.Equal(HttpStatusCode.UnprocessableEntity, efFailed.StatusCode);
        Assert.Equal(ef.NotificationId, efRetried.NotificationId);
        Assert.Equal("Waiting", status.GetProperty("state").GetString());
        await using var check = await TestDatabase.OpenAsync();
        var outbox = await check.QueryAsync<(long, string, string)>($"SELECT id, recipient, subject FROM {TestDatabase.Schema}.outbox ORDER BY id");
        Assert.Equal(
            [(ado.NotificationId, "ado@example.com", $"Order {ado.OrderId} confirmed"), (ef.NotificationId, "ef@example.com", "Your order of a pen is confirmed")],
            outbox);
        var orders = await check.QueryAsync<string>("SELECT recipient FROM sample_order ORDER BY id");
        Assert.Equal(["ado@example.com", "ef@example.com", "ef@example.com"], orders);
        Assert.Equal(1, await db.CountAsync("idempotency_key"));
    }

    [Fact]
    public async Task OrdersSample_APostgreSqlApp_RestoresNeitherSqlClientNorIdentityModel()
    {
        string json = await PackedClient.DotnetAsync(RepositoryLayout.Root, client.AppEnvironment(Path.Combine(client.Work, "orders")),
            "list", SampleApp.Project, "package", "--include-transitive", "--format", "json");

        var packages = PackageIds(json);
        Assert.Contains("Notifications.Client", packages);
        Assert.Contains("Npgsql", packages);
        Assert.DoesNotContain(packages, id =>
            id.StartsWith("Microsoft.Data.SqlClient", StringComparison.Ordinal) || id.Contains("IdentityModel", StringComparison.Ordinal)
            || id == "Notifications.Client.SqlServer" || id == "Microsoft.EntityFrameworkCore.SqlServer");
    }

    [Fact]
    public async Task ClientDoc_QuickStartConsoleApp_EnqueuesReadsTheStatusAndTheMailArrivesFromTheNamedSenderWithThePdf()
    {
        var db = await TestDatabase.CleanAsync();
        string doc = await File.ReadAllTextAsync(RepositoryLayout.File("docs", "client.md"));
        string app = Directory.CreateDirectory(Path.Combine(client.Work, "Notify")).FullName;
        string project = NotificationsVersion().Replace(DocBlock(doc, "xml", "<!-- Notify/Notify.csproj -->"), $"${{1}}{client.Version}$2");
        await File.WriteAllTextAsync(Path.Combine(app, "Notify.csproj"), project);
        await File.WriteAllTextAsync(Path.Combine(app, "Program.cs"), DocBlock(doc, "csharp", "// Notify/Program.cs"));
        await File.WriteAllBytesAsync(Path.Combine(app, "invoice.pdf"), Pdf);
        var environment = new Dictionary<string, string>
        {
            ["RestoreAdditionalProjectSources"] = client.Packages,
            ["ConnectionStrings__Notifications"] = TestRoles.ConnectionString(DatabaseRole.App),
        };

        string output = await PackedClient.DotnetAsync(app, environment, "run", "-c", "Release");

        var printed = Regex.Match(output, @"Notification (\d+): Waiting \(in the outbox");
        Assert.True(printed.Success, output);
        await using var check = await TestDatabase.OpenAsync();
        Assert.Equal(("ada@example.com", "Welcome, Ada"), await check.QuerySingleAsync<(string, string)>(
            $"SELECT recipient, subject FROM {TestDatabase.Schema}.outbox WHERE id = @id", new { id = long.Parse(printed.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture) }));
        Assert.Equal(1, await db.CountAsync("outbox"));

        // The rest of the page: the workers send it, the sender's name from the consumer's Smtp:From.
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Smtp:From", "Acme Billing <billing@acme.example>")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(2));
        }

        using MimeMessage received = SinkDump.LoadMessage(sink.MessageFiles().Single());
        var from = received.From.Mailboxes.Single();
        Assert.Equal(("Acme Billing", "billing@acme.example"), (from.Name, from.Address));
        Assert.Equal("ada@example.com", received.To.Mailboxes.Single().Address);
        var pdf = Assert.IsType<MimePart>(Assert.Single(received.Attachments));
        Assert.Equal(("invoice.pdf", "application/pdf"), (pdf.FileName, pdf.ContentType.MimeType));
        using var bytes = new MemoryStream();
        pdf.Content!.DecodeTo(bytes);
        Assert.Equal(Pdf, bytes.ToArray());
        Assert.Contains("<p>Your account is ready.", received.HtmlBody, StringComparison.Ordinal);
    }


    /// <summary>The fenced <paramref name="language"/> block of <paramref name="doc"/> whose first line is <paramref name="firstLine"/>.</summary>
    private static string DocBlock(string doc, string language, string firstLine) =>
        Regex.Matches(doc, $"```{language}\n(.*?)```", RegexOptions.Singleline)
            .Select(m => m.Groups[1].Value)
            .Single(block => block.StartsWith(firstLine + "\n", StringComparison.Ordinal));

    // The doc names the release version of the Notifications packages; the test restores the one it packed.
    [GeneratedRegex("""(<PackageReference Include="Notifications\.Client[^"]*" Version=")[^"]+(")""")]
    private static partial Regex NotificationsVersion();

    private static async Task<OrderPlaced> PlaceAsync(HttpClient http, string path, object order)
    {
        using var response = await http.PostAsJsonAsync(path, order);
        Assert.True(response.IsSuccessStatusCode, $"POST {path}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        return (await response.Content.ReadFromJsonAsync<OrderPlaced>())!;
    }

    /// <summary>Every package, top-level and transitive, in <c>dotnet list package --format json</c>'s answer.</summary>
    private static List<string> PackageIds(string json)
    {
        using var document = JsonDocument.Parse(json);
        return document.RootElement.GetProperty("projects").EnumerateArray()
            .SelectMany(p => p.GetProperty("frameworks").EnumerateArray())
            .SelectMany(f => new[] { "topLevelPackages", "transitivePackages" }
                .SelectMany(kind => f.TryGetProperty(kind, out var list) ? list.EnumerateArray() : Enumerable.Empty<JsonElement>()))
            .Select(p => p.GetProperty("id").GetString()!)
            .ToList();
    }

    private sealed record OrderPlaced(long OrderId, long NotificationId);
}
