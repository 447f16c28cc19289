using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>FCM v1, OAuth2 and APNs requests as their clients write them, for the push server's own tests.</summary>
internal static class PushRequests
{
    public static string NewDeviceToken() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(32));

    public static HttpRequestMessage Token(Uri tokenUrl, string assertion, string grantType = FcmTokenEndpoint.GrantType) =>
        Http2(HttpMethod.Post, tokenUrl, new FormUrlEncodedContent(
            new Dictionary<string, string> { ["grant_type"] = grantType, ["assertion"] = assertion }));

    public static async Task<string> AccessTokenAsync(HttpClient client, PushServer server, PushTestKeys keys)
    {
        string assertion = keys.CreateAssertion(server.TokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(1));
        using var response = await client.SendAsync(Token(server.TokenUrl, assertion));
        response.EnsureSuccessStatusCode();
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.GetProperty("access_token").GetString()!;
    }

    public static HttpRequestMessage FcmSend(PushServer server, string project, string? bearer, string body)
    {
        var request = Http2(HttpMethod.Post, new Uri(server.FcmBaseUrl, $"v1/projects/{project}/messages:send"),
            new StringContent(body, Encoding.UTF8, "application/json"));
        if (bearer is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
        }

        return request;
    }

    /// <summary>An FCM v1 body whose data (keys and values) totals <paramref name="payloadBytes"/> bytes.</summary>
    public static string FcmBody(string token, string notificationId, int payloadBytes = 100)
    {
        int pad = payloadBytes - PushLog.NotificationIdKey.Length - notificationId.Length - "pad".Length;
        var data = new Dictionary<string, string> { [PushLog.NotificationIdKey] = notificationId, ["pad"] = new string('x', pad) };
        return JsonSerializer.Serialize(new { message = new { token, data } });
    }

    public static HttpRequestMessage ApnsSend(PushServer server, string deviceToken, string? providerToken, string payload,
        Version? version = null, IReadOnlyDictionary<string, string>? headers = null)
    {
        var request = Http2(HttpMethod.Post, new Uri(server.ApnsBaseUrl, $"3/device/{deviceToken}"),
            new StringContent(payload, Encoding.UTF8, "application/json"));
        request.Version = version ?? HttpVersion.Version20;
        if (providerToken is not null)
        {
            request.Headers.TryAddWithoutValidation("authorization", "bearer " + providerToken);
        }

        var all = new Dictionary<string, string> { ["apns-topic"] = "com.example.app", ["apns-push-type"] = "alert" };
        foreach (var (name, value) in headers ?? new Dictionary<string, string>())
        {
            all[name] = value;
        }

        foreach (var (name, value) in all.Where(h => h.Value.Length > 0))
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }

        return request;
    }

    /// <summary>An APNs payload of exactly <paramref name="totalBytes"/> bytes carrying the notification id.</summary>
    public static string ApnsPayload(string notificationId, int totalBytes = 200)
    {
        string Build(int pad) => JsonSerializer.Serialize(new Dictionary<string, object>
        {
            ["aps"] = new { alert = new { title = "Hello", body = "World" } },
            [PushLog.NotificationIdKey] = notificationId,
            ["pad"] = new string('x', pad),
        });

        return Build(totalBytes - Encoding.UTF8.GetByteCount(Build(0)));
    }

    private static HttpRequestMessage Http2(HttpMethod method, Uri url, HttpContent content) => new(method, url)
    {
        Content = content,
        Version = HttpVersion.Version20,
        VersionPolicy = HttpVersionPolicy.RequestVersionExact,
    };
}
