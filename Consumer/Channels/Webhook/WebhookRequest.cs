using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// A webhook made ready to send: the endpoint as the cache knows it (URL, secrets, whether private addresses are allowed),
/// the target's host (its rate-limit and Retry-After key) and the body, which every attempt sends unchanged.
/// </summary>
internal sealed record WebhookRequest(long NotificationId, DateTimeOffset CreatedAt, WebhookEndpoint Endpoint, Uri Url, string Body)
    : Outgoing(NotificationId, CreatedAt)
{
    /// <summary>The webhook-id: the notification id, the same in every attempt, so receivers can drop a copy.</summary>
    public string WebhookId { get; } = NotificationId.ToString(System.Globalization.CultureInfo.InvariantCulture);

    public string Host => Url.IdnHost;

    /// <summary>How logs and reasons name where it goes: the endpoint's name and host, never the URL (it may hold a token).</summary>
    public string Target => $"webhook endpoint '{Endpoint.Name}' ({Host})";

    // The endpoint holds the secrets, its URL may be one: printed, a request shows its id and where it goes only.
    public override string ToString() => $"webhook {WebhookId} to {Target}";
}
