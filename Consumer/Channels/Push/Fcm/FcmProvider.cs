using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Push.Fcm;

/// <summary>
/// FCM HTTP v1: <c>POST {BaseUrl}v1/projects/{project}/messages:send</c> with an OAuth2 bearer token of the service account.
/// An error answer is Google's <c>{"error":{"code","status","details":[{"errorCode"}]}}</c>; 404 / UNREGISTERED means the
/// registration token is gone.
/// </summary>
internal sealed class FcmProvider : IPushProvider
{
    public const string ClientName = "push.fcm";
    public const string TokenClientName = "push.fcm.oauth";

    private readonly FcmAccessTokens? _tokens;
    private readonly Uri _sendUrl;
    private readonly TimeProvider _time;

    public FcmProvider(FcmOptions options, ProviderLink link, FcmAccessTokens? tokens, TimeProvider time)
    {
        Link = link;
        _tokens = tokens;
        _time = time;
        string project = options.ProjectId ?? tokens?.ProjectId ?? "";
        _sendUrl = new Uri(options.BaseUrl, $"v1/projects/{Uri.EscapeDataString(project)}/messages:send");
    }

    public string Name => PushRules.Fcm;

    public bool Enabled => _tokens is not null;

    public ProviderLink Link { get; }

    public PushNotification? Prepare(NotificationMessage message, string token, IReadOnlyList<KeyValuePair<string, string>> data, out string? refused) =>
        FcmPayload.Build(message, token, data, _time.GetUtcNow(), out refused) is { } body
            ? new PushNotification(message.Id, message.CreatedAt, message.Recipient!, Name, token, body, Apns: null)
            : null;

    public async ValueTask<HttpRequestMessage> CreateRequestAsync(PushNotification push, HttpContent content, CancellationToken cancellationToken)
    {
        string accessToken = await _tokens!.GetAsync(cancellationToken);
        var request = new HttpRequestMessage(HttpMethod.Post, _sendUrl)
        {
            Content = content,
            Version = HttpVersion.Version20,
            // Google speaks HTTP/1.1 too: h2 when ALPN offers it.
            VersionPolicy = HttpVersionPolicy.RequestVersionOrLower,
        };
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", accessToken);
        return request;
    }

    public string? ReasonOf(string body)
    {
        try
        {
            using var json = JsonDocument.Parse(body);
            if (!json.RootElement.TryGetProperty("error", out var error) || error.ValueKind != JsonValueKind.Object)
            {
                return null;
            }

            // The FCM-specific errorCode (UNREGISTERED, QUOTA_EXCEEDED...) says more than the generic status (NOT_FOUND...).
            if (error.TryGetProperty("details", out var details) && details.ValueKind == JsonValueKind.Array)
            {
                foreach (var detail in details.EnumerateArray())
                {
                    if (detail.ValueKind == JsonValueKind.Object && detail.TryGetProperty("errorCode", out var code) && code.ValueKind == JsonValueKind.String)
                    {
                        return code.GetString();
                    }
                }
            }

            return error.TryGetProperty("status", out var status) && status.ValueKind == JsonValueKind.String ? status.GetString() : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public void CredentialsRefused(HttpRequestMessage request, string? reason)
    {
        if (request.Headers.Authorization?.Parameter is { } accessToken)
        {
            _tokens?.Forget(accessToken);
        }
    }

    public bool IsGone(int status, string? reason) => status == 404 || reason == "UNREGISTERED";
}
