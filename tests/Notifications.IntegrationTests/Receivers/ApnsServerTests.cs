using System.Net;
using System.Security.Cryptography;
using System.Text.Json;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>The push server's APNs side over TLS and HTTP/2 from a real client: provider token, headers, payload, answers.</summary>
public sealed class ApnsServerTests : IAsyncLifetime
{
    private PushTestScope push = null!;

    public async Task InitializeAsync() => push = await PushTestScope.StartAsync(CancellationToken.None);

    public async Task DisposeAsync() => await push.DisposeAsync();

    [Fact]
    public async Task Send_Http11_RefusedLikeApns()
    {
        var request = PushRequests.ApnsSend(push.Server, PushRequests.NewDeviceToken(), push.ProviderToken, PushRequests.ApnsPayload("n1"), HttpVersion.Version11);

        await Assert.ThrowsAsync<HttpRequestException>(() => push.Client.SendAsync(request));
        Assert.Empty(push.Server.Log.Requests);
    }

    [Fact]
    public async Task Send_Valid_200WithApnsIdEchoedAndRecorded()
    {
        string apnsId = Guid.NewGuid().ToString("D");
        string device = PushRequests.NewDeviceToken();
        using var response = await push.Client.SendAsync(PushRequests.ApnsSend(push.Server, device, push.ProviderToken, PushRequests.ApnsPayload("n-7"),
            headers: new Dictionary<string, string> { ["apns-id"] = apnsId, ["apns-priority"] = "10", ["apns-expiration"] = "0" }));

        Assert.Equal((HttpStatusCode.OK, HttpVersion.Version20), (response.StatusCode, response.Version));
        Assert.Equal(apnsId, Assert.Single(response.Headers.GetValues("apns-id")));
        var request = Assert.Single(push.Server.Log.Requests);
        Assert.Equal(("apns", device, "n-7", "com.example.app"), (request.Provider, request.Token, request.NotificationId, request.Headers["apns-topic"]));
        Assert.Equal((1, 1), (push.Server.Log.CountFor("n-7"), push.Server.Log.AcceptedCountFor("n-7")));
    }

    [Fact]
    public async Task Send_ProviderTokenOlderThanAnHour_403ExpiredProviderToken() =>
        Assert.Equal((403, "ExpiredProviderToken"), await SendAsync(push.Keys.CreateProviderToken(DateTimeOffset.UtcNow.AddMinutes(-61))));

    [Fact]
    public async Task Send_ProviderToken59MinutesOld_200() =>
        Assert.Equal((200, ""), await SendAsync(push.Keys.CreateProviderToken(DateTimeOffset.UtcNow.AddMinutes(-59))));

    [Fact]
    public async Task Send_ProviderTokenSignedWithAnotherKey_403InvalidProviderToken()
    {
        using var stranger = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        Assert.Equal((403, "InvalidProviderToken"), await SendAsync(push.Keys.CreateProviderToken(DateTimeOffset.UtcNow, signWith: stranger)));
    }

    [Fact]
    public async Task Send_ProviderTokenWithAnotherKeyId_403InvalidProviderToken() =>
        Assert.Equal((403, "InvalidProviderToken"), await SendAsync(push.Keys.CreateProviderToken(DateTimeOffset.UtcNow, keyId: "OTHERKEY00")));

    [Fact]
    public async Task Send_AnotherProviderTokenOnTheConnectionWithin20Minutes_429TooManyProviderTokenUpdatesFirstStaysInUse()
    {
        string other = push.Keys.CreateProviderToken(DateTimeOffset.UtcNow);
        Assert.NotEqual(push.ProviderToken, other);

        Assert.Equal((200, ""), await SendAsync(push.ProviderToken));
        Assert.Equal((429, "TooManyProviderTokenUpdates"), await SendAsync(other));
        Assert.Equal((200, ""), await SendAsync(push.ProviderToken));

        // Apple counts per connection: another connection may start with another token (another server sharing the key).
        using var second = push.Server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));
        using var response = await second.SendAsync(PushRequests.ApnsSend(push.Server, PushRequests.NewDeviceToken(), other, PushRequests.ApnsPayload("n2")));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task Send_NoAuthorization_403MissingProviderToken() =>
        Assert.Equal((403, "MissingProviderToken"), await SendAsync(providerToken: null));

    [Theory]
    [InlineData("abc123")]
    [InlineData("zz00000000000000000000000000000000000000000000000000000000000000")]
    [InlineData("00000000000000000000000000000000000000000000000000000000000000000")]
    public async Task Send_BadDeviceToken_400BadDeviceToken(string device) =>
        Assert.Equal((400, "BadDeviceToken"), await SendAsync(push.ProviderToken, device));

    [Theory]
    [InlineData("apns-topic", "", 400, "MissingTopic")]
    [InlineData("apns-push-type", "", 400, "InvalidPushType")]
    [InlineData("apns-push-type", "loud", 400, "InvalidPushType")]
    [InlineData("apns-priority", "7", 400, "BadPriority")]
    [InlineData("apns-expiration", "tomorrow", 400, "BadExpirationDate")]
    [InlineData("apns-id", "not-a-uuid", 400, "BadMessageId")]
    public async Task Send_BadHeader_400WithApnsReason(string header, string value, int status, string reason) =>
        Assert.Equal((status, reason), await SendAsync(push.ProviderToken, headers: new Dictionary<string, string> { [header] = value }));

    [Theory]
    [InlineData(64, 200, "")]
    [InlineData(65, 400, "BadCollapseId")]
    public async Task Send_CollapseIdAtAndOverLimit_AcceptedThenBadCollapseId(int bytes, int status, string reason) =>
        Assert.Equal((status, reason), await SendAsync(push.ProviderToken, headers: new Dictionary<string, string> { ["apns-collapse-id"] = new('c', bytes) }));

    [Theory]
    [InlineData(4096, 200, "")]
    [InlineData(4097, 413, "PayloadTooLarge")]
    public async Task Send_PayloadAtAndOverLimit_AcceptedThen413(int bytes, int status, string reason) =>
        Assert.Equal((status, reason), await SendAsync(push.ProviderToken, payload: PushRequests.ApnsPayload("n1", bytes)));

    [Theory]
    [InlineData("", "PayloadEmpty")]
    [InlineData("""{"alert":"no aps"}""", "BadPayload")]
    [InlineData("""{"aps":""", "BadPayload")]
    public async Task Send_PayloadEmptyOrWithoutAps_400(string payload, string reason) =>
        Assert.Equal((400, reason), await SendAsync(push.ProviderToken, payload: payload));

    [Fact]
    public async Task Send_DeviceMarkedUnregistered_410WithTimestamp()
    {
        string device = PushRequests.NewDeviceToken();
        push.Server.Log.MarkUnregistered(device);
        using var response = await push.Client.SendAsync(PushRequests.ApnsSend(push.Server, device, push.ProviderToken, PushRequests.ApnsPayload("n1")));

        Assert.Equal(HttpStatusCode.Gone, response.StatusCode);
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("Unregistered", json.RootElement.GetProperty("reason").GetString());
        long timestamp = json.RootElement.GetProperty("timestamp").GetInt64();
        Assert.InRange(timestamp, DateTimeOffset.UtcNow.AddMinutes(-1).ToUnixTimeMilliseconds(), DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
    }


    private async Task<(int Status, string Reason)> SendAsync(string? providerToken, string? device = null, string? payload = null,
        IReadOnlyDictionary<string, string>? headers = null)
    {
        using var response = await push.Client.SendAsync(PushRequests.ApnsSend(push.Server, device ?? PushRequests.NewDeviceToken(), providerToken,
            payload ?? PushRequests.ApnsPayload("n1"), headers: headers));
        string body = await response.Content.ReadAsStringAsync();
        if (body.Length == 0)
        {
            return ((int)response.StatusCode, "");
        }

        using var json = JsonDocument.Parse(body);
        return ((int)response.StatusCode, json.RootElement.GetProperty("reason").GetString()!);
    }
}
