using System.Net;
using System.Net.Http.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>
/// The receivers as the benchmark harness runs them (<see cref="ReceiverMode.Benchmark"/>: counting only, keeping no request)
/// and their counts as the harness reads them, over HTTPS from <c>GET /_receiver/counts</c>.
/// </summary>
public sealed class ReceiverCountsTests
{
    private const string Body = """{"type":"order.shipped","data":{"id":42}}""";

    [Fact]
    public async Task WebhookBenchmarkMode_RepeatedIdAndWrongSecret_CountsDistinctDuplicateRefusedAndKeepsNoDelivery()
    {
        string secret = WebhookRequests.NewSecret();
        await using var receiver = await WebhookReceiver.StartAsync([secret], plainHttp: false, ReceiverMode.Benchmark(0), CancellationToken.None);
        using var client = receiver.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));

        foreach (var (id, signWith) in (ValueTuple<string, string>[])[("1", secret), ("2", secret), ("1", secret), ("3", WebhookRequests.NewSecret())])
        {
            using var response = await client.SendAsync(WebhookRequests.Signed(receiver.Url, id, DateTimeOffset.UtcNow, Body, signWith));
        }

        var counts = await client.GetFromJsonAsync<ReceiptCounts>(new Uri(receiver.Url, ReceiverHost.CountsPath));
        Assert.Equal(new ReceiptCounts(Requests: 4, Accepted: 3, Distinct: 2, Duplicates: 1, Refused: 1, Unidentified: 0), counts);
        Assert.Empty(receiver.Deliveries);
        Assert.Equal((2, 1), (receiver.CountFor("1"), receiver.CountFor("3")));
    }

    [Fact]
    public async Task PushBenchmarkMode_FcmApnsAndAStaleProviderToken_CountsAcceptedPerNotificationIdAndRefused()
    {
        using var keys = new PushTestKeys();
        await using var server = await PushServer.StartAsync(keys.Trust, ReceiverMode.Benchmark(0), CancellationToken.None);
        using var client = server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));
        string bearer = await PushRequests.AccessTokenAsync(client, server, keys);
        string fresh = keys.CreateProviderToken(DateTimeOffset.UtcNow);
        string stale = keys.CreateProviderToken(DateTimeOffset.UtcNow.AddMinutes(-61));
        string device = PushRequests.NewDeviceToken();

        using (await client.SendAsync(PushRequests.FcmSend(server, keys.ProjectId, bearer, PushRequests.FcmBody("token-1", "n1"))))
        using (await client.SendAsync(PushRequests.ApnsSend(server, device, fresh, PushRequests.ApnsPayload("n2"))))
        using (await client.SendAsync(PushRequests.ApnsSend(server, device, fresh, PushRequests.ApnsPayload("n2"))))
        using (var refused = await client.SendAsync(PushRequests.ApnsSend(server, device, stale, PushRequests.ApnsPayload("n3"))))
        {
            Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        }

        var counts = await client.GetFromJsonAsync<ReceiptCounts>(new Uri(server.FcmBaseUrl, ReceiverHost.CountsPath));
        Assert.Equal(new ReceiptCounts(Requests: 4, Accepted: 3, Distinct: 2, Duplicates: 1, Refused: 1, Unidentified: 0), counts);
        Assert.Empty(server.Log.Requests);
    }
}
