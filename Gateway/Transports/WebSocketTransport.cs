using System.Buffers;
using System.Globalization;
using System.Net.WebSockets;
using System.Text.Json;

namespace Notifications.Gateway.Transports;

/// <summary>
/// The live channel over a WebSocket (browsers): a notification is a JSON text frame as the consumer built it; the client's
/// acks are <c>{"type":"ack","id":"…"}</c> text frames. Anything else (not JSON, another shape, binary, over 4 KB) is
/// malformed. The gateway's close codes: 1000 normal, 1008 malformed or not reading, 1011 failed, 1001 stopping, each with its
/// reason (docs/live.md).
/// </summary>
internal sealed class WebSocketTransport(WebSocket socket) : ILiveTransport
{
    private const int MaxFrameBytes = 4 * 1024;

    public ValueTask SendAsync(LiveFrame frame, CancellationToken cancellationToken) =>
        socket.SendAsync(frame.Bytes, WebSocketMessageType.Text, endOfMessage: true, cancellationToken);

    public async ValueTask<LiveInput> ReceiveAsync(CancellationToken cancellationToken)
    {
        // A zero-byte read first: an idle connection (most of them, most of the time) holds no receive buffer while it waits.
        var waited = await socket.ReceiveAsync(Memory<byte>.Empty, cancellationToken);
        if (waited.MessageType == WebSocketMessageType.Close)
        {
            return LiveInput.End;
        }

        if (waited.EndOfMessage)
        {
            return LiveInput.Malformed;   // an empty message, consumed whole by the wait: not an ack
        }

        byte[] buffer = ArrayPool<byte>.Shared.Rent(MaxFrameBytes);
        try
        {
            var (count, type) = await ReceiveFrameAsync(buffer, cancellationToken);
            return type switch
            {
                WebSocketMessageType.Close => LiveInput.End,
                WebSocketMessageType.Text when count >= 0 && AckedId(buffer.AsSpan(0, count)) is { } id => LiveInput.Ack(id),
                _ => LiveInput.Malformed,
            };
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    public Task CloseAsync(LiveClose close, CancellationToken cancellationToken)
    {
        if (socket.State is not (WebSocketState.Open or WebSocketState.CloseReceived))
        {
            return Task.CompletedTask;
        }

        var (status, reason) = close switch
        {
            LiveClose.Malformed => (WebSocketCloseStatus.PolicyViolation, "expected {\"type\":\"ack\",\"id\":\"<id>\"}"),
            LiveClose.NotReading => (WebSocketCloseStatus.PolicyViolation, "the client did not read its notifications: reconnect to receive them"),
            LiveClose.Failed => (WebSocketCloseStatus.InternalServerError, "the gateway failed: reconnect"),
            LiveClose.Stopping => (WebSocketCloseStatus.EndpointUnavailable, "the gateway is stopping: reconnect"),
            _ => (WebSocketCloseStatus.NormalClosure, ""),
        };
        return socket.CloseOutputAsync(status, reason, cancellationToken);
    }

    public bool IsGone(Exception exception) => exception is WebSocketException or OperationCanceledException;

    // One whole frame into the buffer (at most MaxFrameBytes of it): its length, or -1 when it does not fit.
    private async Task<(int Count, WebSocketMessageType Type)> ReceiveFrameAsync(byte[] buffer, CancellationToken cancellationToken)
    {
        int count = 0;
        while (true)
        {
            var result = await socket.ReceiveAsync(buffer.AsMemory(count, MaxFrameBytes - count), cancellationToken);
            count += result.Count;
            if (result.MessageType == WebSocketMessageType.Close || result.EndOfMessage)
            {
                return (count, result.MessageType);
            }

            if (count == MaxFrameBytes)
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
}
