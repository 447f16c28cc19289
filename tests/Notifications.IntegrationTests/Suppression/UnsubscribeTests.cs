using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using Notifications.Consumer.Channels.Email.Unsubscribe;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Data;
using Notifications.Shared.Observability;
using Priority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>
/// List-Unsubscribe on bulk mail as the SMTP server receives it, and the one-click POST (RFC 8058) over real HTTP to
/// a running consumer: a valid token suppresses the address for bulk mail, a forged one does nothing.
/// </summary>
[Collection("services")]
public sealed partial class UnsubscribeTests
{
    private static readonly UnsubscribeToken Verifier = new(Encoding.UTF8.GetBytes(SuppressionProbe.SigningKey));

    [Fact]
    public async Task OneClick_BulkMailHeadersThenPost_AddressUnsubscribedFromBulkOnly()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long bulk = await SuppressionProbe.EnqueueAsync("Reader@Example.com", Priority.Bulk);
        long normal = await SuppressionProbe.EnqueueAsync("reader@example.com");

        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, SuppressionProbe.UnsubscribeSettings);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        await sink.WaitForMessagesAsync(2, TimeSpan.FromMinutes(1));

        // The bulk message: both headers, the https URL's token verifies for this recipient and notification.
        var headers = SuppressionProbe.Dump(sink, bulk).Headers;
        Assert.Equal("List-Unsubscribe=One-Click", headers["List-Unsubscribe-Post"]);
        var link = ListUnsubscribe().Match(headers["List-Unsubscribe"]);
        Assert.True(link.Success, headers["List-Unsubscribe"]);
        string token = link.Groups["token"].Value;
        var check = Verifier.Verify(token);
        Assert.Equal((UnsubscribeTokenOutcome.Valid, bulk, "reader@example.com"), (check.Outcome, check.NotificationId, check.Address));

        // The normal-lane message: neither header.
        var normalHeaders = SuppressionProbe.Dump(sink, normal).Headers;
        Assert.False(normalHeaders.ContainsKey("List-Unsubscribe"));
        Assert.False(normalHeaders.ContainsKey("List-Unsubscribe-Post"));

        using var http = new HttpClient { BaseAddress = consumer.Get<OperationsEndpoint>().Address };
        string forged = Verifier.Create(bulk, "victim@example.com")[..^2] + "AA";
        Assert.Equal(HttpStatusCode.Forbidden, (await PostAsync(http, forged)).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await PostAsync(http, "garbage")).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await http.PostAsync($"/unsubscribe?token={token}", new StringContent("List-Unsubscribe=One-Click"))).StatusCode);
        Assert.Equal(HttpStatusCode.MethodNotAllowed, (await http.GetAsync($"/unsubscribe?token={token}")).StatusCode);
        Assert.Empty(await SuppressionProbe.RowsAsync());

        Assert.Equal(HttpStatusCode.OK, (await PostAsync(http, token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await PostAsync(http, token)).StatusCode);
        var row = Assert.Single(await SuppressionProbe.RowsAsync());
        Assert.Equal(("reader@example.com", SuppressionReasons.Unsubscribed, "bulk", false), (row.Address, row.Reason, row.Scope, row.Removed));

        // From now on: no bulk mail to the address, transactional mail still.
        long nextBulk = await SuppressionProbe.EnqueueAsync("reader@example.com", Priority.Bulk);
        long nextNormal = await SuppressionProbe.EnqueueAsync("reader@example.com");
        await StatusProbe.WaitForAsync(nextBulk, "suppressed");
        await StatusProbe.WaitForAsync(nextNormal, "sent");
        var counts = sink.CountByNotificationId();
        Assert.Equal(new[] { bulk, normal, nextNormal }.Order(), counts.Keys.Order());
    }

    private static Task<HttpResponseMessage> PostAsync(HttpClient http, string token) =>
        http.PostAsync($"/unsubscribe?token={Uri.EscapeDataString(token)}",
            new FormUrlEncodedContent([new KeyValuePair<string, string>("List-Unsubscribe", "One-Click")]));

    [GeneratedRegex(@"^<mailto:unsubscribe@example\.test\?subject=unsubscribe>, <https://mail\.example\.test/unsubscribe\?token=(?<token>[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)>$")]
    private static partial Regex ListUnsubscribe();
}
