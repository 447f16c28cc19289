using System.Globalization;
using System.Net;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Push.Apns;

/// <summary>
/// APNs over HTTP/2 only: <c>POST {BaseUrl}3/device/{token}</c> with the provider token and the apns-* headers. An error answer
/// is <c>{"reason":…}</c>; 410 Unregistered and 400 BadDeviceToken mean the device token is gone.
/// </summary>
internal sealed class ApnsProvider : IPushProvider
{
    public const string ClientName = "push.apns";

    private readonly ApnsProviderToken? _token;
    private readonly string _topic;
    private readonly Uri _baseUrl;

    public ApnsProvider(ApnsOptions options, ProviderLink link, ApnsProviderToken? token)
    {
        Link = link;
        _token = token;
        _topic = options.Topic ?? "";
        _baseUrl = options.BaseUrl;
    }

    public string Name => PushRules.Apns;

    public bool Enabled => _token is not null;

    public ProviderLink Link { get; }

    public PushNotification? Prepare(NotificationMessage message, string token, IReadOnlyList<KeyValuePair<string, string>> data, out string? refused) =>
        ApnsPayload.Build(message, data, out refused) is { } body
            ? new PushNotification(message.Id, message.CreatedAt, message.Recipient!, Name, token, body, ApnsPayload.Headers(message))
            : null;

    public ValueTask<HttpRequestMessage> CreateRequestAsync(PushNotification push, HttpContent content, CancellationToken cancellationToken)
    {
        var headers = push.Apns!;
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(_baseUrl, $"3/device/{push.Token}"))
        {
            Content = content,
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        // Apple's header names and lower-case "bearer", as its documentation writes them.
        request.Headers.TryAddWithoutValidation("authorization", "bearer " + _token!.Current);
        request.Headers.TryAddWithoutValidation("apns-topic", _topic);
        request.Headers.TryAddWithoutValidation("apns-push-type", headers.PushType);
        request.Headers.TryAddWithoutValidation("apns-priority", headers.Priority.ToString(CultureInfo.InvariantCulture));
        request.Headers.TryAddWithoutValidation("apns-expiration", headers.Expiration.ToString(CultureInfo.InvariantCulture));
        request.Headers.TryAddWithoutValidation("apns-id", headers.Id.ToString("D"));
        return ValueTask.FromResult(request);
    }

    public string? ReasonOf(string body)
    {
        try
        {
            using var json = JsonDocument.Parse(body);
            return json.RootElement.ValueKind == JsonValueKind.Object && json.RootElement.TryGetProperty("reason", out var reason)
                && reason.ValueKind == JsonValueKind.String ? reason.GetString() : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public void CredentialsRefused(HttpRequestMessage request, string? reason)
    {
        // Only an expired token is ours to renew early; a wrong key or team stays wrong however often it is signed.
        if (reason == "ExpiredProviderToken" && request.Headers.TryGetValues("authorization", out var values))
        {
            _token?.Forget(values.First()["bearer ".Length..]);
        }
    }

    public bool IsGone(int status, string? reason) => status == 410 || (status == 400 && reason == "BadDeviceToken");
}
