using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace Notifications.Shared.Contract;

/// <summary>
/// The webhook and push fields' rules, one field at a time. Plain .NET only: this file is compiled into the client package
/// as well, so an app hears at enqueue what a consumer would otherwise dead-letter (WebhookRules and PushRules apply
/// them to a whole message).
/// </summary>
internal static partial class ChannelRules
{
    /// <summary>An endpoint name's length limit.</summary>
    public const int MaxEndpointNameLength = 64;

    /// <summary>An event type's length limit.</summary>
    public const int MaxEventTypeLength = 200;

    /// <summary>The largest webhook payload data, in characters.</summary>
    public const int MaxWebhookDataLength = 256 * 1024;

    /// <summary>APNs' and FCM's payload limit, in bytes.</summary>
    public const int MaxPushPayloadBytes = 4096;

    /// <summary>The FCM provider's prefix in a push recipient.</summary>
    public const string Fcm = "fcm";

    /// <summary>The APNs provider's prefix in a push recipient.</summary>
    public const string Apns = "apns";

    /// <summary>Null when <paramref name="name"/> can name a webhook endpoint; otherwise why not.</summary>
    public static string? EndpointName(string? name) =>
        name is not null && name.Length <= MaxEndpointNameLength && EndpointNamePattern().IsMatch(name)
            ? null
            : $"invalid webhook endpoint name (recipient): '{Truncate(name)}' is not 1-{MaxEndpointNameLength} "
              + "lower-case letters, digits, '.', '_' or '-', starting with a letter or digit";

    /// <summary>Null when <paramref name="type"/> can be a webhook's event type (Standard Webhooks' <c>type</c>); otherwise why not.</summary>
    public static string? EventType(string? type) =>
        !string.IsNullOrEmpty(type) && type.Length <= MaxEventTypeLength && EventTypePattern().IsMatch(type)
            ? null
            : $"invalid webhook event type (subject): '{Truncate(type)}' is not 1-{MaxEventTypeLength} of letters, digits and . _ : - (e.g. invoice.paid)";

    /// <summary>Null when <paramref name="data"/> can be a webhook's payload data (any JSON value); otherwise why not.</summary>
    public static string? WebhookData(string? data)
    {
        if (data is null)
        {
            return "invalid webhook data: missing (the payload's data, any JSON value)";
        }

        if (data.Length > MaxWebhookDataLength)
        {
            return $"invalid webhook data: {data.Length} characters, the limit is {MaxWebhookDataLength}";
        }

        using var document = ParseJson(data, "webhook", out string? reason);
        return reason;
    }

    /// <summary>
    /// Splits a push recipient into its provider (<see cref="Fcm"/> or <see cref="Apns"/>) and token. An FCM registration token is
    /// letters, digits, '-', '_' and ':' (1-4096); an APNs device token is 64-200 hex digits, an even number of them.
    /// </summary>
    public static string? PushRecipient(string? recipient, out string provider, out string token)
    {
        provider = token = "";
        int colon = recipient?.IndexOf(':') ?? -1;
        if (recipient is null || colon < 0)
        {
            return $"invalid push recipient: '{Truncate(recipient)}' is not 'fcm:<registration token>' or 'apns:<device token>'";
        }

        provider = recipient[..colon];
        token = recipient[(colon + 1)..];
        return provider switch
        {
            Fcm when token.Length > 4096 || !FcmTokenPattern().IsMatch(token)
                => "invalid FCM registration token: expected 1-4096 letters, digits, '-', '_' or ':'",
            Apns when token.Length % 2 != 0 || !ApnsTokenPattern().IsMatch(token)
                => "invalid APNs device token: expected 64-200 hex digits (an even number)",
            Fcm or Apns => null,
            _ => $"invalid push provider '{Truncate(provider)}': expected 'fcm' or 'apns'",
        };
    }

    /// <summary>Null when a push notification with this title, text and data can be sent; otherwise why not.</summary>
    public static string? PushContent(string? title, string? text, string? data) => Content("push", title, text, data);

    /// <summary>
    /// Null when a live notification with this title, text and data can be sent; otherwise why not. The same rules as push:
    /// a live notification falls back to push when no app acks it (docs/live.md).
    /// </summary>
    public static string? LiveContent(string? title, string? text, string? data) => Content("live", title, text, data);

    private static string? Content(string channel, string? title, string? text, string? data)
    {
        if (string.IsNullOrEmpty(title) && string.IsNullOrEmpty(text) && data is null)
        {
            return $"invalid {channel} notification: no title (subject), text (body) or data";
        }

        if ((title ?? "").Any(char.IsControl))
        {
            return $"invalid {channel} title (subject): contains a control character";
        }

        if (data is not null && ContentData(channel, data) is { } dataError)
        {
            return dataError;
        }

        int bytes = Encoding.UTF8.GetByteCount(title ?? "") + Encoding.UTF8.GetByteCount(text ?? "") + Encoding.UTF8.GetByteCount(data ?? "");
        return bytes > MaxPushPayloadBytes
            ? $"invalid {channel} notification: title, text and data are {bytes} bytes, over the providers' {MaxPushPayloadBytes}-byte payload limit"
            : null;
    }

    private static string? ContentData(string channel, string data)
    {
        using var document = ParseJson(data, channel, out string? reason);
        if (document is null)
        {
            return reason;
        }

        if (document.RootElement.ValueKind != JsonValueKind.Object)
        {
            return $"invalid {channel} data: not a JSON object";
        }

        foreach (var property in document.RootElement.EnumerateObject())
        {
            if (property.Value.ValueKind != JsonValueKind.String)
            {
                return $"invalid {channel} data: '{Truncate(property.Name)}' is not a string (FCM data values are strings)";
            }
        }

        return null;
    }

    private static JsonDocument? ParseJson(string data, string channel, out string? reason)
    {
        try
        {
            var document = JsonDocument.Parse(data);
            reason = null;
            return document;
        }
        catch (JsonException ex)
        {
            reason = $"invalid {channel} data: not JSON ({ex.Message})";
            return null;
        }
    }

    private static string Truncate(string? value) => value is null ? "" : value.Length <= 64 ? value : value[..64] + "...";

    [GeneratedRegex("^[a-z0-9][a-z0-9._-]*\\z", RegexOptions.CultureInvariant)]
    private static partial Regex EndpointNamePattern();

    [GeneratedRegex("^[A-Za-z0-9._:-]+\\z", RegexOptions.CultureInvariant)]
    private static partial Regex EventTypePattern();

    [GeneratedRegex("^[A-Za-z0-9_:-]+\\z", RegexOptions.CultureInvariant)]
    private static partial Regex FcmTokenPattern();

    [GeneratedRegex("^[0-9a-fA-F]{64,200}\\z", RegexOptions.CultureInvariant)]
    private static partial Regex ApnsTokenPattern();
}
