using System.Buffers;
using System.Globalization;
using System.Text.Json;

namespace Notifications.Shared.Contract;

/// <summary>
/// The live channel's notification frame, one WebSocket text frame (docs/live.md):
/// <c>{"type":"notification","id":"…","subject":…,"body":…,"data":{…}}</c>. The id is a string: fan-out ids are 2^62 and
/// more, beyond a JavaScript number's exact range. The consumer builds it once and the gateway forwards its bytes as they are.
/// </summary>
public static class LiveFrames
{
    /// <summary>
    /// The header of a frame published to the live exchange that says the consumer wrote its row at most once: a gateway
    /// marks such a row sent before it sends it, and does not send it when another did (docs/live.md).
    /// </summary>
    public const string AtMostOnceHeader = "x-live-at-most-once";

    /// <summary>
    /// The routing key of a broadcast's frame on the live exchange (docs/live.md#broadcasts-to-a-topic): every gateway node
    /// binds it. No subscriber id starts with <c>~</c>, so none is routed there.
    /// </summary>
    public const string BroadcastRoutingKey = "~broadcast";

    /// <summary>The frame of notification <paramref name="id"/>; <paramref name="data"/> is a JSON object's text, or null.</summary>
    public static byte[] Notification(long id, string? subject, string? body, string? data)
    {
        var frame = new ArrayBufferWriter<byte>(128 + ((subject?.Length ?? 0) + (body?.Length ?? 0) + (data?.Length ?? 0)) * 2);
        using (var json = new Utf8JsonWriter(frame))
        {
            json.WriteStartObject();
            json.WriteString("type", "notification");
            json.WriteString("id", id.ToString(CultureInfo.InvariantCulture));
            json.WriteString("subject", subject);
            json.WriteString("body", body);
            if (data is not null)
            {
                json.WritePropertyName("data");
                json.WriteRawValue(data);
            }

            json.WriteEndObject();
        }

        return frame.WrittenSpan.ToArray();
    }
}
