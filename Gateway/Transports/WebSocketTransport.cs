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
    // One frame of the client's at a time: an ack is a few dozen bytes.
    private readonly byte[] _buffer = new byte[MaxFrameBytes];

    public ValueTask SendAsync(LiveFrame frame, CancellationToken cancellationToken) =>
        socket.SendAsync(frame.Bytes, WebSocketMessageType.Text, endOfMessage: true, cancellationToken);

    public async ValueTask<LiveInput> ReceiveAsync(CancellationToken cancellationToken)
    {
        var (count, type) = await ReceiveFrameAsync(cancellationToken);
        return type switch
        {
            WebSocketMessageType.Close => LiveInput.End,
            WebSocketMessageType.Text when count >= 0 && AckedId(_buffer.AsSpan(0, count)) is { } id => LiveInput.Ack(id),
            _ => LiveInput.Malformed,
        };
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

    // One whole frame into the buffer: its length, or -1 when it does not fit.
    private async Task<(int Count, WebSocketMessageType Type)> ReceiveFrameAsync(CancellationToken cancellationToken)
    {
        int count = 0;
        while (true)
        {
            var result = await socket.ReceiveAsync(_buffer.AsMemory(count, _buffer.Length - count), cancellationToken);
            count += result.Count;
            if (result.MessageType == WebSocketMessageType.Close || result.EndOfMessage)
            {
                return (count, result.MessageType);
            }

            if (count == _buffer.Length)
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
