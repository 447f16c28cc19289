using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Notifications.Shared.Outcomes;

/// <summary>
/// The event's payload data, the webhook row's <c>data</c>: the webhook channel sends it as the Standard Webhooks body's
/// <c>data</c>, under the row's type and time.
/// </summary>
public static class OutcomeEventBody
{
    /// <summary>The payload data of <paramref name="e"/>: notification_id, channel, recipient, occurred_at, detail.</summary>
    public static string Write(OutcomeEvent e)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteNumber("notification_id", e.NotificationId);
            json.WriteString("channel", e.Channel);
            if (e.Recipient is null)
            {
                json.WriteNull("recipient");
            }
            else
            {
                json.WriteString("recipient", e.Recipient);
            }

            json.WriteString("occurred_at", e.OccurredAt.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.ffffff'Z'", CultureInfo.InvariantCulture));
            json.WritePropertyName("detail");
            if (e.Detail is null)
            {
                json.WriteStartObject();
                json.WriteEndObject();
            }
            else
            {
                json.WriteRawValue(e.Detail);
            }

            json.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    /// <summary>A detail object of string fields (the reason, the key).</summary>
    public static string Detail(params (string Name, string? Value)[] fields)
    {
        var buffer = new ArrayBufferWriter<byte>(128);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            foreach (var (name, value) in fields)
            {
                json.WriteString(name, value);
            }

            json.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
