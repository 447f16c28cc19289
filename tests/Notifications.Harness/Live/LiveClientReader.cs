using System.Diagnostics;
using System.Globalization;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;

namespace Notifications.Harness.Live;

/// <summary>
/// What each client does with its connection: reads every notification frame's id, records its arrival and acks it at once, as
/// docs/live.md's client does; one ack in <c>ackSample</c> is handed to the probe, if there is one (the harness's own clients;
/// a <see cref="LiveClientProcess"/> has none). A frame whose subject is the topic broadcast's (<see cref="LiveBroadcast.Subject"/>)
/// is recorded by the client's subscriber instead of its id, and not handed to the probe. Counts the connections that ended without the run asking (the gateway closed
/// them, or they broke) and the frames that were not a notification with an id.
/// </summary>
internal sealed class LiveClientReader(LiveArrivals arrivals, LiveAckProbe? probe, int ackSample)
{
    private static readonly byte[] IdProperty = "id"u8.ToArray();
    private static readonly byte[] SubjectProperty = "subject"u8.ToArray();
    private static readonly byte[] BroadcastSubject = Encoding.UTF8.GetBytes(LiveBroadcast.Subject);
    private long _closedByGateway;
    private long _unreadable;

    /// <summary>Connections the gateway closed or that broke while the run went on (their notifications stay pending).</summary>
    public long ClosedByGateway => Interlocked.Read(ref _closedByGateway);

    /// <summary>Frames that were not a notification with an id.</summary>
    public long Unreadable => Interlocked.Read(ref _unreadable);

    /// <summary>
    /// Reads <paramref name="subscriber"/>'s <paramref name="socket"/> until it ends; <paramref name="cancellationToken"/> is
    /// cancelled when the run drops the connection itself (its end, a storm), so that break is not counted as the gateway's.
    /// </summary>
    public async Task ReadAsync(string subscriber, ClientWebSocket socket, CancellationToken cancellationToken)
    {
        var buffer = new byte[4096];
        try
        {
            while (true)
            {
                var (count, type) = await ReceiveFrameAsync(socket, buffer, cancellationToken);
                long at = Stopwatch.GetTimestamp();
                if (type == WebSocketMessageType.Close)
                {
                    Interlocked.Increment(ref _closedByGateway);
                    return;
                }

                var (read, broadcast) = Notification(buffer.AsSpan(0, count));
                if (read is not { } id)
                {
                    Interlocked.Increment(ref _unreadable);
                    continue;
                }

                if (broadcast)
                {
                    arrivals.RecordBroadcast(subscriber, at);
                }
                else
                {
                    arrivals.Record(id, at);
                }

                await socket.SendAsync(Ack(id), WebSocketMessageType.Text, endOfMessage: true, cancellationToken);
                if (probe is not null && !broadcast && id % ackSample == 0)
                {
                    probe.Acked(id, Stopwatch.GetTimestamp());
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Dropped by the run (its end, or a storm).
        }
        catch (WebSocketException) when (cancellationToken.IsCancellationRequested)
        {
            // Aborted by the run.
        }
        catch (ObjectDisposedException) when (cancellationToken.IsCancellationRequested)
        {
            // Aborted by the run while an ack was going out.
        }
        catch (WebSocketException)
        {
            Interlocked.Increment(ref _closedByGateway);
        }
    }

    private static async Task<(int Count, WebSocketMessageType Type)> ReceiveFrameAsync(ClientWebSocket socket, byte[] buffer, CancellationToken cancellationToken)
    {
        int count = 0;
        while (true)
        {
            var result = await socket.ReceiveAsync(buffer.AsMemory(count), cancellationToken);
            count += result.Count;
            if (result.EndOfMessage || result.MessageType == WebSocketMessageType.Close || count == buffer.Length)
            {
                return (count, result.MessageType);
            }
        }
    }

    private static byte[] Ack(long id) => Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $$"""{"type":"ack","id":"{{id}}"}"""));

    /// <summary>
    /// The frame's top-level <c>"id"</c> (a string: ids pass a JavaScript number's exact range), or null; and whether its
    /// top-level <c>"subject"</c> is the topic broadcast's. The frame is read up to the later of the two (the consumer writes the id first).
    /// </summary>
    internal static (long? Id, bool Broadcast) Notification(ReadOnlySpan<byte> frame)
    {
        long? id = null;
        bool? broadcast = null;
        try
        {
            var reader = new Utf8JsonReader(frame);
            while ((id is null || broadcast is null) && reader.Read())
            {
                if (reader.TokenType != JsonTokenType.PropertyName || reader.CurrentDepth != 1)
                {
                    continue;
                }

                var (isId, isSubject) = (reader.ValueTextEquals(IdProperty), reader.ValueTextEquals(SubjectProperty));
                reader.Read();
                id = isId && long.TryParse(reader.GetString(), NumberStyles.None, CultureInfo.InvariantCulture, out long n) ? n : id;
                broadcast = isSubject ? reader.TokenType == JsonTokenType.String && reader.ValueTextEquals(BroadcastSubject) : broadcast;
            }
        }
        catch (JsonException)
        {
            // Not JSON (or cut off after the id): what was read, a missing id counted as unreadable by the caller.
        }

        return (id, broadcast ?? false);
    }
}
