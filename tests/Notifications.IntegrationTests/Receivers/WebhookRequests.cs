using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>Signed webhook requests as a Standard Webhooks sender writes them, for the receiver's own tests.</summary>
internal static class WebhookRequests
{
    public static string NewSecret() => "whsec_" + Convert.ToBase64String(RandomNumberGenerator.GetBytes(24));

    /// <summary>A POST of <paramref name="body"/> with one v1 signature per secret in <paramref name="signWith"/>.</summary>
    public static HttpRequestMessage Signed(Uri url, string id, DateTimeOffset timestamp, string body, params string[] signWith)
    {
        long seconds = timestamp.ToUnixTimeSeconds();
        byte[] bytes = Encoding.UTF8.GetBytes(body);
        string signatures = string.Join(' ', signWith.Select(secret => StandardWebhookVerifier.Sign(secret, id, seconds, bytes)));
        return Build(url, id, seconds.ToString(System.Globalization.CultureInfo.InvariantCulture), signatures, bytes);
    }

    public static HttpRequestMessage Build(Uri url, string? id, string? timestamp, string? signatures, byte[] body)
    {
        // h2 where TLS offers it (ALPN), HTTP/1.1 on the plain loopback listener.
        var request = new HttpRequestMessage(HttpMethod.Post, url)
        {
            Content = new ByteArrayContent(body),
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionOrLower,
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        AddIfSet(request, StandardWebhookVerifier.IdHeader, id);
        AddIfSet(request, StandardWebhookVerifier.TimestampHeader, timestamp);
        AddIfSet(request, StandardWebhookVerifier.SignatureHeader, signatures);
        return request;
    }

    private static void AddIfSet(HttpRequestMessage request, string name, string? value)
    {
        if (value is not null)
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }
    }
}
