using System.Text;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Push.Fcm;

/// <summary>
/// The FCM HTTP v1 request body: <c>{"message":{"token","notification":{"title","body"},"data":{…},"android":{"priority","ttl"}}}</c>.
/// Bulk rows go with Android priority normal, others high; ttl is the time left until the row's expiry (absent: FCM's default, 4 weeks).
/// </summary>
internal static class FcmPayload
{
    /// <summary>The body, or null and why when its payload is over FCM's limit.</summary>
    public static byte[]? Build(
        NotificationMessage message, string token, IReadOnlyList<KeyValuePair<string, string>> data, DateTimeOffset now, out string? refused)
    {
        // FCM's limit counts what the app receives: the data's keys and values and the notification's title and text.
        int size = PayloadBytes(message, data);
        if (size > PushRules.MaxPayloadBytes)
        {
            refused = $"push payload too large: {size} bytes of FCM data and notification, over the {PushRules.MaxPayloadBytes}-byte limit";
            return null;
        }

        refused = null;
        using var buffer = new MemoryStream(256);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteStartObject("message");
            json.WriteString("token", token);
            WriteNotification(json, message);
            if (data.Count > 0)
            {
                json.WriteStartObject("data");
                PushData.Write(json, data);
                json.WriteEndObject();
            }

            json.WriteStartObject("android");
            json.WriteString("priority", message.IsBulk ? "normal" : "high");
            if (message.ExpiresAt is { } expires)
            {
                // A protobuf Duration in JSON: seconds with an "s".
                json.WriteString("ttl", $"{Math.Max(0, (long)(expires - now).TotalSeconds)}s");
            }

            json.WriteEndObject();
            json.WriteEndObject();
            json.WriteEndObject();
        }

        return buffer.ToArray();
    }

    private static void WriteNotification(Utf8JsonWriter json, NotificationMessage message)
    {
        if (string.IsNullOrEmpty(message.Subject) && string.IsNullOrEmpty(message.Body))
        {
            return;
        }

        json.WriteStartObject("notification");
        if (!string.IsNullOrEmpty(message.Subject))
        {
            json.WriteString("title", message.Subject);
        }

        if (!string.IsNullOrEmpty(message.Body))
        {
            json.WriteString("body", message.Body);
        }

        json.WriteEndObject();
    }

    private static int PayloadBytes(NotificationMessage message, IReadOnlyList<KeyValuePair<string, string>> data)
    {
        int bytes = Encoding.UTF8.GetByteCount(message.Subject ?? "") + Encoding.UTF8.GetByteCount(message.Body ?? "");
        foreach (var (key, value) in data)
        {
            bytes += Encoding.UTF8.GetByteCount(key) + Encoding.UTF8.GetByteCount(value);
        }

        return bytes;
    }
}
