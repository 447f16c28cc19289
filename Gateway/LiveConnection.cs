using System.Buffers;
using System.Globalization;
using System.Net.WebSockets;
using System.Text.Json;
using Microsoft.Extensions.Logging;

namespace Notifications.Gateway;

/// <summary>
/// One client's WebSocket: its pending notifications first, in id order, each as a JSON text frame
/// (<c>{"type":"notification","id":"…","subject":…,"body":…,"data":…}</c>, the id a string: 2^62-sized ids do not fit a
/// JavaScript number); then the client's acks (<c>{"type":"ack","id":"…"}</c>), each deleting its pending row. An ack for an
/// id that is not the subscriber's pending one is ignored (logged at Debug). A frame that is not such an ack closes the
/// connection (1008, with the reason); the gateway goes on.
/// </summary>
internal sealed partial class LiveConnection(WebSocket socket, string subscriber, PendingStore pending, GatewayOptions options, ILogger logger)
{
    private const int MaxFrameBytes = 4 * 1024;

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        foreach (var notification in await pending.PendingAsync(subscriber, options.MaxPending, cancellationToken))
        {
            await SendAsync(notification, cancellationToken);
        }

        var buffer = ArrayPool<byte>.Shared.Rent(MaxFrameBytes);
        try
        {
            while (socket.State == WebSocketState.Open)
            {
                var (count, type) = await ReceiveFrameAsync(buffer, cancellationToken);
                if (type == WebSocketMessageType.Close)
                {
                    await socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cancellationToken);
                    return;
                }

                if (type != WebSocketMessageType.Text || count < 0 || AckedId(buffer.AsSpan(0, count)) is not { } id)
                {
                    LogMalformedFrame(logger, subscriber);
                    await socket.CloseAsync(WebSocketCloseStatus.PolicyViolation, "expected {\"type\":\"ack\",\"id\":\"<id>\"}", cancellationToken);
                    return;
                }

                if (!await pending.AckAsync(subscriber, id, cancellationToken))
                {
                    LogAckIgnored(logger, subscriber, id);
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private async Task SendAsync(PendingNotification notification, CancellationToken cancellationToken)
    {
        var frame = new ArrayBufferWriter<byte>();
        await using (var json = new Utf8JsonWriter(frame))
        {
            json.WriteStartObject();
            json.WriteString("type", "notification");
            json.WriteString("id", notification.Id.ToString(CultureInfo.InvariantCulture));
            json.WriteString("subject", notification.Subject);
            json.WriteString("body", notification.Body);
            if (notification.Data is { } data)
            {
                json.WritePropertyName("data");
                json.WriteRawValue(data);
            }

            json.WriteEndObject();
        }

        await socket.SendAsync(frame.WrittenMemory, WebSocketMessageType.Text, endOfMessage: true, cancellationToken);
    }

    // One whole frame into buffer: its length, or -1 when it does not fit.
    private async Task<(int Count, WebSocketMessageType Type)> ReceiveFrameAsync(byte[] buffer, CancellationToken cancellationToken)
    {
        int count = 0;
        while (true)
        {
            var result = await socket.ReceiveAsync(buffer.AsMemory(count, buffer.Length - count), cancellationToken);
            count += result.Count;
            if (result.MessageType == WebSocketMessageType.Close || result.EndOfMessage)
            {
                return (count, result.MessageType);
            }

            if (count == buffer.Length)
            {
                return (-1, result.MessageType);
            }
        }
    }

    private static long? AckedId(ReadOnlySpan<byte> frame)
    {
        try
        {
            var reader = new Utf8JsonReader(frame);
            using var document = JsonDocument.ParseValue(ref reader);
            var root = document.RootElement;
            return root.ValueKind == JsonValueKind.Object
                && root.TryGetProperty("type", out var type) && type.ValueEquals("ack")
                && root.TryGetProperty("id", out var id) && id.ValueKind == JsonValueKind.String
                && long.TryParse(id.GetString(), NumberStyles.None, CultureInfo.InvariantCulture, out long value)
                ? value
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    [LoggerMessage(EventId = 7011, Level = LogLevel.Debug, Message = "Live connection of {Subscriber}: ack of {Id}, not one of its pending notifications; ignored")]
    private static partial void LogAckIgnored(ILogger logger, string subscriber, long id);

    [LoggerMessage(EventId = 7010, Level = LogLevel.Warning, Message = "Live connection of {Subscriber}: a frame that is not an ack; closed (1008)")]
    private static partial void LogMalformedFrame(ILogger logger, string subscriber);
}
