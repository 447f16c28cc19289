using System.Text;
using System.Text.Json;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Checks an FCM HTTP v1 <c>messages:send</c> body as FCM does: JSON <c>{"message":{...}}</c>, only the message's
/// known fields, a registration token, <c>data</c> a map of strings, <c>notification</c>/<c>android</c>/<c>apns</c>
/// objects, and at most 4096 bytes of payload (data keys and values plus notification title and body), else
/// 400 INVALID_ARGUMENT with Google's wording.
/// </summary>
internal static class FcmMessageValidator
{
    public const int MaxPayloadBytes = 4096;

    private static readonly HashSet<string> MessageFields = new(StringComparer.Ordinal)
    {
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic", "condition",
    };

    public static FcmMessageCheck Check(byte[] body)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(body);
        }
        catch (JsonException e)
        {
            return Refuse($"Invalid JSON payload received. {e.Message}");
        }

        using (document)
        {
            if (document.RootElement.ValueKind is not JsonValueKind.Object
                || !document.RootElement.TryGetProperty("message", out var message) || message.ValueKind is not JsonValueKind.Object)
            {
                return Refuse("Invalid JSON payload received. 'message' is required and must be an object.");
            }

            return CheckMessage(message);
        }
    }

    private static FcmMessageCheck CheckMessage(JsonElement message)
    {
        foreach (var field in message.EnumerateObject())
        {
            if (!MessageFields.Contains(field.Name))
            {
                return Refuse($"Invalid JSON payload received. Unknown name \"{field.Name}\" at 'message': Cannot find field.");
            }
        }

        string? token = message.TryGetProperty("token", out var t) && t.ValueKind is JsonValueKind.String ? t.GetString() : null;
        if (string.IsNullOrWhiteSpace(token))
        {
            return Refuse("The registration token is not a valid FCM registration token");
        }

        foreach (string name in (string[])["notification", "android", "apns", "webpush"])
        {
            if (message.TryGetProperty(name, out var part) && part.ValueKind is not JsonValueKind.Object)
            {
                return Refuse($"Invalid value at 'message.{name}': must be an object.") with { Token = token };
            }
        }

        var (dataBytes, notificationId, dataError) = CheckData(message);
        if (dataError is not null)
        {
            return Refuse(dataError) with { Token = token, NotificationId = notificationId };
        }

        int size = dataBytes + NotificationBytes(message);
        return size > MaxPayloadBytes
            ? Refuse($"Message is too big: {size} bytes of payload, the limit is {MaxPayloadBytes}.") with { Token = token, NotificationId = notificationId }
            : new FcmMessageCheck(token, notificationId, Refusal: null);
    }

    private static (int Bytes, string? NotificationId, string? Error) CheckData(JsonElement message)
    {
        if (!message.TryGetProperty("data", out var data))
        {
            return (0, null, null);
        }

        if (data.ValueKind is not JsonValueKind.Object)
        {
            return (0, null, "Invalid value at 'message.data': must be a map of strings.");
        }

        int bytes = 0;
        int index = 0;
        string? notificationId = null;
        foreach (var entry in data.EnumerateObject())
        {
            if (entry.Value.ValueKind is not JsonValueKind.String)
            {
                return (0, notificationId, $"Invalid value at 'message.data[{index}].value' (TYPE_STRING), {entry.Value.GetRawText()}");
            }

            notificationId = entry.Name == PushLog.NotificationIdKey ? entry.Value.GetString() : notificationId;
            bytes += Encoding.UTF8.GetByteCount(entry.Name) + Encoding.UTF8.GetByteCount(entry.Value.GetString()!);
            index++;
        }

        return (bytes, notificationId, null);
    }

    private static int NotificationBytes(JsonElement message)
    {
        if (!message.TryGetProperty("notification", out var notification))
        {
            return 0;
        }

        int bytes = 0;
        foreach (string name in (string[])["title", "body"])
        {
            if (notification.TryGetProperty(name, out var value) && value.ValueKind is JsonValueKind.String)
            {
                bytes += Encoding.UTF8.GetByteCount(value.GetString()!);
            }
        }

        return bytes;
    }

    private static FcmMessageCheck Refuse(string message) => new(null, null, FcmErrors.InvalidArgument(message));
}
