using System.Buffers;
using System.Text;
using System.Text.Json;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The body Standard Webhooks prescribes: <c>{"type": ..., "timestamp": ..., "data": ...}</c>. <c>timestamp</c> is when the
/// event occurred (the notification's creation, the same in every attempt, so a retry carries the identical body); <c>data</c>
/// goes out exactly as the row holds it (validated JSON, not re-serialized).
/// </summary>
internal static class WebhookPayload
{
    public static string Build(string type, DateTimeOffset occurredAt, string data)
    {
        var buffer = new ArrayBufferWriter<byte>(data.Length + type.Length + 64);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("type", type);
            writer.WriteString("timestamp", occurredAt.UtcDateTime);
            writer.WritePropertyName("data");
            writer.WriteRawValue(data);
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
