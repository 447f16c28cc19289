using System.Buffers;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;

namespace Notifications.Client.Live;

/// <summary>
/// The gateway's frame protocol (docs/live.md): JSON text frames, <c>{"type":"notification","id":"…",…}</c> in,
/// <c>{"type":"ack","id":"…"}</c> out. Ids are strings of decimal digits; the gateway closes a connection (1008) on an ack
/// it cannot read, so an id that is not one is refused here, before it is sent.
/// </summary>
internal static class LiveFrames
{
    /// <summary>Larger frames end the connection: a notification is a subject, a body and a small data object.</summary>
    public const int MaxFrameBytes = 1024 * 1024;

    public static bool IsId(string id) => id.Length is > 0 and <= 20 && id.AsSpan().IndexOfAnyExceptInRange('0', '9') < 0;

    public static byte[] Ack(string id) => Encoding.UTF8.GetBytes($$"""{"type":"ack","id":"{{id}}"}""");

    /// <summary>One whole message into <paramref name="frame"/>; its type (<see cref="WebSocketMessageType.Close"/> when the gateway closes).</summary>
    public static async Task<WebSocketMessageType> ReceiveAsync(WebSocket socket, ArrayBufferWriter<byte> frame, CancellationToken cancellationToken)
    {
        frame.ResetWrittenCount();
        while (true)
        {
            var result = await socket.ReceiveAsync(frame.GetMemory(4096), cancellationToken);
            frame.Advance(result.Count);
            if (result.MessageType == WebSocketMessageType.Close || result.EndOfMessage)
            {
                return result.MessageType;
            }

            if (frame.WrittenCount > MaxFrameBytes)
            {
                throw new InvalidDataException($"The gateway sent a frame over {MaxFrameBytes} bytes.");
            }
        }
    }

    /// <summary>The notification in a text frame; null for a frame of another type (a later protocol's) or one without an id.</summary>
    public static LiveNotification? Notification(ReadOnlySpan<byte> frame)
    {
        var reader = new Utf8JsonReader(frame);
        using var document = JsonDocument.ParseValue(ref reader);
        var root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("type", out var type) || !type.ValueEquals("notification")
            || !root.TryGetProperty("id", out var id) || id.ValueKind != JsonValueKind.String || id.GetString() is not { } value || !IsId(value))
        {
            return null;
        }

        return new LiveNotification(value, Text(root, "subject"), Text(root, "body"),
            root.TryGetProperty("data", out var data) && data.ValueKind != JsonValueKind.Null ? data.Clone() : null);
    }

    private static string? Text(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
}
