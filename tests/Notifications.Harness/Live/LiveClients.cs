using System.Diagnostics;
using System.Globalization;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;

namespace Notifications.Harness.Live;

/// <summary>
/// The run's app clients: N WebSocket connections, each its own subscriber (<see cref="LiveBenchOptions.Subscriber"/>), spread
/// over the gateways in turn. Each client reads every notification frame's id, records its arrival and acks it at once, as
/// docs/live.md's client does; one ack in <see cref="LiveBenchOptions.AckSample"/> is handed to the probe, if there is one (the
/// harness's own clients; a <see cref="LiveClientProcess"/> has none).
/// </summary>
internal sealed class LiveClients(LiveArrivals arrivals, LiveAckProbe? probe, int ackSample) : IAsyncDisposable
{
    // Connection upgrades in flight at once: the gateway binds and reads the pending rows for each.
    private const int ConnectParallelism = 32;
    private static readonly byte[] IdProperty = "id"u8.ToArray();

    private readonly HttpMessageInvoker _invoker = LoopbackConnector.Create();
    // Cancelled when the clients close; not disposed: a late read may still look at its token.
    private readonly CancellationTokenSource _stop = new();
    private readonly List<(string Subscriber, ClientWebSocket Socket, Task Loop)> _clients = [];
    private long _closedByGateway;
    private long _unreadable;

    /// <summary>The subscribers of the connected clients.</summary>
    public string[] Subscribers { get; private set; } = [];

    /// <summary>Connections the gateway closed or that broke while the run went on (their notifications stay pending).</summary>
    public long ClosedByGateway => Interlocked.Read(ref _closedByGateway);

    /// <summary>Frames that were not a notification with an id.</summary>
    public long Unreadable => Interlocked.Read(ref _unreadable);

    /// <summary>
    /// Connects clients <paramref name="first"/> … <paramref name="first"/> + <paramref name="clients"/> - 1, client k to gateway
    /// (k - 1) mod G, each upgrade timed.
    /// </summary>
    public async Task<LiveConnectTimes> ConnectAsync(int first, int clients, IReadOnlyList<Uri> gateways, LiveTokens tokens)
    {
        var times = new double[clients];
        var sockets = new ClientWebSocket?[clients];
        string? firstError = null;
        await Parallel.ForEachAsync(Enumerable.Range(first, clients), new ParallelOptions { MaxDegreeOfParallelism = ConnectParallelism }, async (k, ct) =>
        {
            var gateway = gateways[(k - 1) % gateways.Count];
            var uri = new UriBuilder(gateway) { Query = "access_token=" + Uri.EscapeDataString(tokens.Mint(LiveBenchOptions.Subscriber(k))) }.Uri;
            var socket = new ClientWebSocket();
            // The gateway pings every 30 s; the clients add nothing of their own to the idle connections.
            socket.Options.KeepAliveInterval = TimeSpan.Zero;
            long started = Stopwatch.GetTimestamp();
            try
            {
                await socket.ConnectAsync(uri, _invoker, ct);
                times[k - first] = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                sockets[k - first] = socket;
            }
            catch (Exception ex) when (ex is WebSocketException or HttpRequestException or IOException)
            {
                Interlocked.CompareExchange(ref firstError, ex.GetBaseException().Message, null);
                socket.Dispose();
            }
        });
        var connected = new List<double>(clients);
        for (int i = 0; i < clients; i++)
        {
            if (sockets[i] is { } socket)
            {
                _clients.Add((LiveBenchOptions.Subscriber(first + i), socket, ReceiveAsync(socket, _stop.Token)));
                connected.Add(times[i]);
            }
        }

        Subscribers = _clients.Select(c => c.Subscriber).ToArray();
        return new LiveConnectTimes(connected, clients - connected.Count, firstError);
    }

    public async ValueTask DisposeAsync()
    {
        if (_stop.IsCancellationRequested)
        {
            return;   // closed already
        }

        await _stop.CancelAsync();
        foreach (var (_, socket, _) in _clients)
        {
            socket.Abort();
        }

        await Task.WhenAll(_clients.Select(c => c.Loop));
        _clients.ForEach(c => c.Socket.Dispose());
        _invoker.Dispose();
    }

    // Reads frames until the run ends: each notification's arrival recorded, then acked at once.
    private async Task ReceiveAsync(ClientWebSocket socket, CancellationToken cancellationToken)
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

                if (NotificationId(buffer.AsSpan(0, count)) is not { } id)
                {
                    Interlocked.Increment(ref _unreadable);
                    continue;
                }

                arrivals.Record(id, at);
                await socket.SendAsync(Ack(id), WebSocketMessageType.Text, endOfMessage: true, cancellationToken);
                if (probe is not null && id % ackSample == 0)
                {
                    probe.Acked(id, Stopwatch.GetTimestamp());
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The run is over.
        }
        catch (WebSocketException) when (cancellationToken.IsCancellationRequested)
        {
            // Aborted at the end of the run.
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

    // The frame's top-level "id" (a string: ids pass a JavaScript number's exact range), or null.
    private static long? NotificationId(ReadOnlySpan<byte> frame)
    {
        try
        {
            var reader = new Utf8JsonReader(frame);
            while (reader.Read())
            {
                if (reader.TokenType == JsonTokenType.PropertyName && reader.CurrentDepth == 1 && reader.ValueTextEquals(IdProperty))
                {
                    reader.Read();
                    return long.TryParse(reader.GetString(), NumberStyles.None, CultureInfo.InvariantCulture, out long id) ? id : null;
                }
            }
        }
        catch (JsonException)
        {
            // Not JSON: null, which the caller counts as unreadable.
        }

        return null;
    }
}
