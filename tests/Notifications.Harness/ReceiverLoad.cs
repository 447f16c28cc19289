using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// The requests of an HTTP receiver's ceiling, as the channels' senders write them and with the pipeline rows' content
/// (<see cref="BenchChannel"/>): a Standard Webhooks POST signed with the endpoint's secret; an FCM v1 send with a bearer
/// token from the receiver's OAuth2 endpoint (asked once, as a sender caches it); an APNs h2 POST with an ES256 provider
/// token (made once: it lives an hour). Request <c>n</c> carries id <c>n</c>, so the receiver counts distinct ids.
/// </summary>
internal sealed class ReceiverLoad
{
    private readonly Func<long, HttpRequestMessage> _build;

    private ReceiverLoad(Func<long, HttpRequestMessage> build) => _build = build;

    public HttpRequestMessage Request(long n) => _build(n);

    public static ReceiverLoad Webhook(int port, string secret)
    {
        var url = ReceiverUrls.Webhook(port, "bench-ceiling");
        return new ReceiverLoad(n =>
        {
            string id = n.ToString(CultureInfo.InvariantCulture);
            var now = DateTimeOffset.UtcNow;
            // The Standard Webhooks payload: {"type", "timestamp", "data"}, the row's data as written.
            byte[] body = Encoding.UTF8.GetBytes(
                $$"""{"type":"{{BenchChannel.EventType}}","timestamp":"{{now.ToString("O", CultureInfo.InvariantCulture)}}","data":{{BenchChannel.WebhookData(n)}}}""");
            var request = Post(url, body);
            request.Headers.TryAddWithoutValidation(StandardWebhookVerifier.IdHeader, id);
            long seconds = now.ToUnixTimeSeconds();
            request.Headers.TryAddWithoutValidation(StandardWebhookVerifier.TimestampHeader, seconds.ToString(CultureInfo.InvariantCulture));
            request.Headers.TryAddWithoutValidation(StandardWebhookVerifier.SignatureHeader, StandardWebhookVerifier.Sign(secret, id, seconds, body));
            return request;
        });
    }

    public static async Task<ReceiverLoad> PushAsync(int port, PushTestKeys keys, BenchChannel channel, HttpClient client)
    {
        string accessToken = await AccessTokenAsync(port, keys, client);
        string providerToken = keys.CreateProviderToken(DateTimeOffset.UtcNow);
        var send = new Uri(ReceiverUrls.Fcm(port), $"v1/projects/{keys.ProjectId}/messages:send");
        return new ReceiverLoad(n =>
        {
            var (_, title, text, _) = channel.Row(n);
            var data = new Dictionary<string, string> { [PushLog.NotificationIdKey] = n.ToString(CultureInfo.InvariantCulture) };
            if (channel.ProviderOf(n) == PushRules.Fcm)
            {
                var message = new { token = BenchChannel.FcmToken(n), notification = new { title, body = text }, data };
                var fcm = Post(send, JsonSerializer.SerializeToUtf8Bytes(new { message }));
                fcm.Headers.Authorization = new AuthenticationHeaderValue("Bearer", accessToken);
                return fcm;
            }

            // APNs: custom data beside "aps" at the top level of the payload.
            var payload = new Dictionary<string, object> { ["aps"] = new { alert = new { title, body = text } }, [PushLog.NotificationIdKey] = data[PushLog.NotificationIdKey] };
            var apns = Post(new Uri(ReceiverUrls.Apns(port), $"3/device/{BenchChannel.ApnsToken(n)}"), JsonSerializer.SerializeToUtf8Bytes(payload));
            apns.Headers.TryAddWithoutValidation("authorization", "bearer " + providerToken);
            apns.Headers.TryAddWithoutValidation("apns-topic", BenchChannel.ApnsTopic);
            apns.Headers.TryAddWithoutValidation("apns-push-type", "alert");
            apns.Headers.TryAddWithoutValidation("apns-priority", "10");
            return apns;
        });
    }

    private static async Task<string> AccessTokenAsync(int port, PushTestKeys keys, HttpClient client)
    {
        var tokenUrl = ReceiverUrls.Token(port);
        using var form = new FormUrlEncodedContent(new Dictionary<string, string>
        {
            ["grant_type"] = FcmTokenEndpoint.GrantType,
            ["assertion"] = keys.CreateAssertion(tokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(1)),
        });
        using var response = await client.PostAsync(tokenUrl, form);
        response.EnsureSuccessStatusCode();
        var token = await response.Content.ReadFromJsonAsync<JsonElement>();
        return token.GetProperty("access_token").GetString() ?? throw new InvalidOperationException("the token endpoint answered no access_token");
    }

    private static HttpRequestMessage Post(Uri url, byte[] body)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, url)
        {
            Content = new ByteArrayContent(body),
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        return request;
    }
}
