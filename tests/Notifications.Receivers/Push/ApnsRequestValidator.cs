using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Checks an APNs request's headers and payload as Apple documents them, returning the status and reason it would
/// answer: apns-topic required (MissingTopic), apns-push-type one of Apple's (InvalidPushType), apns-priority 10, 5 or 1
/// (BadPriority), apns-expiration integer seconds (BadExpirationDate), apns-collapse-id ≤ 64 bytes (BadCollapseId),
/// apns-id a UUID (BadMessageId), device token 64 hex digits (BadDeviceToken), payload non-empty (PayloadEmpty),
/// ≤ 4096 bytes (413 PayloadTooLarge), a JSON object with an <c>aps</c> dictionary.
/// </summary>
internal static class ApnsRequestValidator
{
    public const int MaxPayloadBytes = 4096;
    public const int MaxCollapseIdBytes = 64;

    private static readonly HashSet<string> PushTypes = new(StringComparer.Ordinal)
    {
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets", "controls",
    };

    public static (int Status, string Reason)? CheckHeaders(IHeaderDictionary headers, string deviceToken)
    {
        if (string.IsNullOrEmpty(headers["apns-topic"]))
        {
            return (400, "MissingTopic");
        }

        if (!PushTypes.Contains(headers["apns-push-type"].ToString()))
        {
            return (400, "InvalidPushType");
        }

        if (headers.TryGetValue("apns-priority", out var priority) && priority.ToString() is not ("10" or "5" or "1"))
        {
            return (400, "BadPriority");
        }

        if (headers.TryGetValue("apns-expiration", out var expiration) && !long.TryParse(expiration, out _))
        {
            return (400, "BadExpirationDate");
        }

        if (Encoding.UTF8.GetByteCount(headers["apns-collapse-id"].ToString()) > MaxCollapseIdBytes)
        {
            return (400, "BadCollapseId");
        }

        if (headers.TryGetValue("apns-id", out var id) && !Guid.TryParseExact(id.ToString(), "D", out _))
        {
            return (400, "BadMessageId");
        }

        return deviceToken.Length == 64 && deviceToken.All(Uri.IsHexDigit) ? null : (400, "BadDeviceToken");
    }

    /// <summary>Checks the payload; also reads the test's notification id from its top level when there is one.</summary>
    public static (int Status, string Reason)? CheckPayload(byte[] body, out string? notificationId)
    {
        notificationId = null;
        if (body.Length == 0)
        {
            return (400, "PayloadEmpty");
        }

        if (body.Length > MaxPayloadBytes)
        {
            return (413, "PayloadTooLarge");
        }

        try
        {
            using var document = JsonDocument.Parse(body);
            var root = document.RootElement;
            if (root.ValueKind is not JsonValueKind.Object || !root.TryGetProperty("aps", out var aps) || aps.ValueKind is not JsonValueKind.Object)
            {
                // Apple's table has no reason for a payload without aps; this is the server's own word for it.
                return (400, "BadPayload");
            }

            notificationId = root.TryGetProperty(PushLog.NotificationIdKey, out var id) ? id.ToString() : null;
            return null;
        }
        catch (JsonException)
        {
            return (400, "BadPayload");
        }
    }
}
