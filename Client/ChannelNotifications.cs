using System.Text.Json;
using System.Text.Json.Nodes;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>The webhook and push notifications (<see cref="NewNotification.Webhook(string, string, JsonNode?)"/>,
/// <see cref="NewNotification.Push"/>, <see cref="NewNotification.Live"/>): each field checked here as the consumer would, so a bad one fails at enqueue.</summary>
public sealed partial record NewNotification
{
    /// <summary>The channel: <c>email</c> (this constructor, <see cref="FromTemplate(string, string, JsonObject, string?)"/>), <c>webhook</c>, <c>push</c> or <c>live</c>.</summary>
    public string Channel { get; private init; } = "email";

    /// <summary>A webhook's payload data or a push notification's custom data, as JSON text (null for email).</summary>
    public string? Data { get; private init; }

    /// <summary>
    /// A signed webhook (Standard Webhooks) to the endpoint registered as <paramref name="endpoint"/>
    /// (<c>scripts/admin webhooks add</c>): it receives <c>{"type": eventType, "timestamp": …, "data": data}</c> with
    /// <c>webhook-id</c> = the notification id. docs/webhooks.md.
    /// </summary>
    /// <exception cref="ArgumentException">The endpoint name or event type has the wrong shape, or the data is too long.</exception>
    public static NewNotification Webhook(string endpoint, string eventType, JsonNode? data) =>
        Webhook(endpoint, eventType, data?.ToJsonString() ?? "null");

    /// <summary>As <see cref="Webhook(string, string, JsonNode?)"/>, with the data as JSON text.</summary>
    /// <exception cref="ArgumentException">The endpoint name or event type has the wrong shape, or the data is not JSON or too long.</exception>
    public static NewNotification Webhook(string endpoint, string eventType, string dataJson)
    {
        Check(ChannelRules.EndpointName(endpoint), nameof(endpoint));
        Check(ChannelRules.EventType(eventType), nameof(eventType));
        Check(ChannelRules.WebhookData(dataJson), nameof(dataJson));
        return new NewNotification(endpoint, eventType, "") { Channel = "webhook", Data = dataJson };
    }

    /// <summary>
    /// A mobile push notification to <paramref name="recipient"/>: <c>fcm:&lt;registration token&gt;</c> or
    /// <c>apns:&lt;device token&gt;</c>, with a title, a text, custom data (string values), or a mix; at most 4 KB together.
    /// A token the provider reports unregistered ends on the suppression list with reason <c>unregistered</c>. docs/push.md.
    /// </summary>
    /// <exception cref="ArgumentException">The recipient or token has the wrong shape, nothing is given, or it is over 4 KB.</exception>
    public static NewNotification Push(string recipient, string? title, string? text, IReadOnlyDictionary<string, string>? data = null)
    {
        string? dataJson = data is null ? null : JsonSerializer.Serialize(data, ChannelJsonContext.Default.IReadOnlyDictionaryStringString);
        Check(ChannelRules.PushRecipient(recipient, out _, out _), nameof(recipient));
        Check(ChannelRules.PushContent(title, text, dataJson), nameof(data));
        // No title or text is stored as NULL, not "" (an empty title shows as nothing anyway).
        return new NewNotification(recipient, title ?? "", text ?? "") { Channel = "push", Data = dataJson };
    }

    /// <summary>
    /// A live notification to <paramref name="subscriber"/>'s running apps (the app's own id, as its clients' tokens name it):
    /// the gateway sends it over each app's connection and keeps it pending until an app acks it or it expires. A title, a
    /// text, custom data (string values), or a mix; at most 4 KB together, as push. docs/live.md.
    /// </summary>
    /// <exception cref="ArgumentException">The subscriber id has the wrong shape, nothing is given, or it is over 4 KB.</exception>
    public static NewNotification Live(string subscriber, string? title, string? text, IReadOnlyDictionary<string, string>? data = null)
    {
        string? dataJson = data is null ? null : JsonSerializer.Serialize(data, ChannelJsonContext.Default.IReadOnlyDictionaryStringString);
        Check(AudienceRules.SubscriberId(subscriber), nameof(subscriber));
        Check(ChannelRules.LiveContent(title, text, dataJson), nameof(data));
        return new NewNotification(subscriber, title ?? "", text ?? "") { Channel = "live", Data = dataJson };
    }

    /// <summary>Null when the channel's notification carries only what the channel has; otherwise what it carries.</summary>
    internal string? EmailOnlyField() => Channel == "email" ? null : this switch
    {
        { ReplyTo: not null } => "ReplyTo",
        { Cc: not null } => "Cc",
        { Bcc: not null } => "Bcc",
        { Headers: not null } => "Headers",
        { IsHtml: true } => "IsHtml",
        { HtmlBody: not null } => "HtmlBody",
        { Attachments: not null } => "Attachments",
        { FromName: not null } => "FromName",
        _ => null,
    };

    private static void Check(string? error, string parameter)
    {
        if (error is not null)
        {
            throw new ArgumentException(error, parameter);
        }
    }
}
