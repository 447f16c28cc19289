using System.Net;
using System.Text.RegularExpressions;
using Notifications.Consumer.Suppression;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Data;
using Notifications.Shared.Observability;
using Notifications.Unsubscribe;
using Priority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>
/// List-Unsubscribe on bulk mail as the SMTP server receives it, and the unsubscribe process over real HTTP, connected
/// as its own database role: the token reveals nothing, a GET shows a page with a form, the POST (a mail client's
/// one-click, RFC 8058, or the page's button) writes the suppression row and the next bulk mail is not sent; a
/// tampered token gets a page and changes nothing; the public port and the metrics port serve nothing of each other.
/// </summary>
[Collection("services")]
public sealed partial class UnsubscribeTests
{
    [Fact]
    public async Task Unsubscribe_LinkOfASentBulkMail_PageThenPostSuppressesTheNextBulkMailOnly()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long bulk = await SuppressionProbe.EnqueueAsync("Reader@Example.com", Priority.Bulk);
        long normal = await SuppressionProbe.EnqueueAsync("reader@example.com");

        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, SuppressionProbe.UnsubscribeSettings);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        await using var unsubscribe = await WorkerHost.StartUnsubscribeAsync(SuppressionProbe.KeySettings);
        await sink.WaitForMessagesAsync(2, TimeSpan.FromMinutes(1));

        // The bulk message: both headers; the token shows nothing of the address, however decoded.
        var headers = SuppressionProbe.Dump(sink, bulk).Headers;
        Assert.Equal("List-Unsubscribe=One-Click", headers["List-Unsubscribe-Post"]);
        var link = ListUnsubscribe().Match(headers["List-Unsubscribe"]);
        Assert.True(link.Success, headers["List-Unsubscribe"]);
        string token = link.Groups["token"].Value;
        UnsubscribeTokenAssert.RevealsNothing(token, "reader@example.com");
        var normalHeaders = SuppressionProbe.Dump(sink, normal).Headers;
        Assert.False(normalHeaders.ContainsKey("List-Unsubscribe"));
        Assert.False(normalHeaders.ContainsKey("List-Unsubscribe-Post"));

        using var http = new HttpClient { BaseAddress = unsubscribe.Get<UnsubscribeServer>().Address };
        // GET: the page with its one-button form; nothing written (link scanners fetch URLs).
        var page = await http.GetAsync($"/unsubscribe?token={token}");
        string html = await page.Content.ReadAsStringAsync();
        Assert.Equal((HttpStatusCode.OK, "text/html"), (page.StatusCode, page.Content.Headers.ContentType?.MediaType));
        Assert.Contains("<form method=\"post\">", html, StringComparison.Ordinal);
        Assert.Contains("name=\"List-Unsubscribe\" value=\"One-Click\"", html, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.BadRequest, (await http.PostAsync($"/unsubscribe?token={token}", new StringContent("List-Unsubscribe=One-Click"))).StatusCode);
        Assert.Empty(await SuppressionProbe.RowsAsync());

        // POST as the form (or a mail client) sends it: the row, once; a repeat answers the same.
        var done = await SuppressionProbe.PostOneClickAsync(http, token);
        Assert.Equal(HttpStatusCode.OK, done.StatusCode);
        Assert.Contains("You are unsubscribed", await done.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await SuppressionProbe.PostOneClickAsync(http, token)).StatusCode);
        var row = Assert.Single(await SuppressionProbe.RowsAsync());
        Assert.Equal(("reader@example.com", SuppressionReasons.Unsubscribed, "bulk", false), (row.Address, row.Reason, row.Scope, row.Removed));

        // The consumer learns of it from the table (its refresh), then: no bulk mail to the address, transactional mail still.
        var cache = consumer.Get<SuppressionCache>();
        await Eventually.WaitAsync(() => Task.FromResult(cache.Find("reader@example.com")), m => m is { Listed: true }, TimeSpan.FromSeconds(30), "the consumer's suppression cache holds the address");
        long nextBulk = await SuppressionProbe.EnqueueAsync("reader@example.com", Priority.Bulk);
        long nextNormal = await SuppressionProbe.EnqueueAsync("reader@example.com");
        await StatusProbe.WaitForAsync(nextBulk, "suppressed");
        await StatusProbe.WaitForAsync(nextNormal, "sent");
        Assert.Equal(new[] { bulk, normal, nextNormal }.Order(), sink.CountByNotificationId().Keys.Order());
    }

    [Fact]
    public async Task Unsubscribe_TamperedToken_RefusedWithAPageAndNoRow()
    {
        await TestDatabase.CleanAsync();
        await using var unsubscribe = await WorkerHost.StartUnsubscribeAsync(SuppressionProbe.KeySettings);
        using var http = new HttpClient { BaseAddress = unsubscribe.Get<UnsubscribeServer>().Address };
        string token = SuppressionProbe.Tokens().Create(new(7, "victim@example.com", DateTimeOffset.UtcNow));
        char[] chars = token.ToCharArray();
        chars[chars.Length / 2] = chars[chars.Length / 2] == 'A' ? 'B' : 'A';
        string tampered = new(chars);

        foreach (var response in new[] { await http.GetAsync($"/unsubscribe?token={tampered}"), await SuppressionProbe.PostOneClickAsync(http, tampered) })
        {
            Assert.Equal((HttpStatusCode.Forbidden, "text/html"), (response.StatusCode, response.Content.Headers.ContentType?.MediaType));
            Assert.Contains("This link is not valid", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        }

        var malformed = await SuppressionProbe.PostOneClickAsync(http, "garbage");
        Assert.Equal(HttpStatusCode.BadRequest, malformed.StatusCode);
        Assert.Contains("<html", await malformed.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Empty(await SuppressionProbe.RowsAsync());
    }

    [Fact]
    public async Task Ports_PublicAndMetrics_EachServesOnlyItsOwnPaths()
    {
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, SuppressionProbe.UnsubscribeSettings);
        await using var unsubscribe = await WorkerHost.StartUnsubscribeAsync(SuppressionProbe.KeySettings);
        using var http = new HttpClient();
        var publicPort = unsubscribe.Get<UnsubscribeServer>().Address!;
        var metricsPort = unsubscribe.Get<OperationsEndpoint>().Address!;
        string token = SuppressionProbe.Tokens().Create(new(7, "reader@example.com", DateTimeOffset.UtcNow));
        Assert.NotEqual(publicPort.Port, metricsPort.Port);

        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync(new Uri(publicPort, $"/unsubscribe?token={token}"))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync(new Uri(metricsPort, "/metrics"))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync(new Uri(metricsPort, "/health/live"))).StatusCode);
        foreach (var path in new[] { "/metrics", "/health/live", "/health/ready", "/health/started" })
        {
            Assert.Equal(HttpStatusCode.NotFound, (await http.GetAsync(new Uri(publicPort, path))).StatusCode);
        }

        foreach (var operations in new[] { metricsPort, consumer.Get<OperationsEndpoint>().Address! })
        {
            Assert.Equal(HttpStatusCode.NotFound, (await http.GetAsync(new Uri(operations, $"/unsubscribe?token={token}"))).StatusCode);
            Assert.Equal(HttpStatusCode.NotFound, (await SuppressionProbe.PostOneClickAsync(http, token, operations)).StatusCode);
        }
    }

    [Fact]
    public async Task KeyRotation_TokenOfTheOldKey_HonouredWhileTheOldKeyIsKeptRefusedAfter()
    {
        await TestDatabase.CleanAsync();
        string old = SuppressionProbe.Tokens().Create(new(7, "early@example.com", DateTimeOffset.UtcNow));
        string newKey = Convert.ToBase64String(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));

        await using (var rotated = await WorkerHost.StartUnsubscribeAsync([.. SuppressionProbe.KeySettings, ("Unsubscribe:Keys:2026-11", newKey), ("Unsubscribe:CurrentKey", "2026-11")]))
        {
            using var http = new HttpClient { BaseAddress = rotated.Get<UnsubscribeServer>().Address };
            Assert.Equal(HttpStatusCode.OK, (await SuppressionProbe.PostOneClickAsync(http, old)).StatusCode);
            Assert.Equal("early@example.com", Assert.Single(await SuppressionProbe.RowsAsync()).Address);
        }

        await TestDatabase.CleanAsync();
        await using var retired = await WorkerHost.StartUnsubscribeAsync(("Unsubscribe:Keys:2026-11", newKey));
        using var after = new HttpClient { BaseAddress = retired.Get<UnsubscribeServer>().Address };
        var refused = await SuppressionProbe.PostOneClickAsync(after, old);
        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Contains("This link is not valid", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Empty(await SuppressionProbe.RowsAsync());
    }

    [Fact]
    public async Task LegacyToken_HonouredWhileTheOldKeyIsConfiguredRefusedWithAPageWithout()
    {
        await TestDatabase.CleanAsync();
        const string oldKey = "the-consumers-old-signing-key-0123456789";
        string legacy = SuppressionProbe.LegacyToken(oldKey, 7, "before@example.com");

        await using (var window = await WorkerHost.StartUnsubscribeAsync([.. SuppressionProbe.KeySettings, ("Unsubscribe:LegacySigningKey", oldKey)]))
        {
            using var http = new HttpClient { BaseAddress = window.Get<UnsubscribeServer>().Address };
            Assert.Equal(HttpStatusCode.OK, (await http.GetAsync($"/unsubscribe?token={legacy}")).StatusCode);
            Assert.Equal(HttpStatusCode.OK, (await SuppressionProbe.PostOneClickAsync(http, legacy)).StatusCode);
            Assert.Equal("before@example.com", Assert.Single(await SuppressionProbe.RowsAsync()).Address);
        }

        await TestDatabase.CleanAsync();
        await using var after = await WorkerHost.StartUnsubscribeAsync(SuppressionProbe.KeySettings);
        using var client = new HttpClient { BaseAddress = after.Get<UnsubscribeServer>().Address };
        var refused = await SuppressionProbe.PostOneClickAsync(client, legacy);
        Assert.Equal(HttpStatusCode.Gone, refused.StatusCode);
        Assert.Contains("This link is too old", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Empty(await SuppressionProbe.RowsAsync());
    }

    [GeneratedRegex(@"^<mailto:unsubscribe@example\.test\?subject=unsubscribe>, <https://mail\.example\.test/unsubscribe\?token=(?<token>[A-Za-z0-9_\-]+)>$")]
    private static partial Regex ListUnsubscribe();
}
