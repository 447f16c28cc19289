using System.Diagnostics;
using System.Net.WebSockets;

namespace Notifications.Harness.Live;

/// <summary>
/// The run's app clients: N WebSocket connections, each its own subscriber (<see cref="LiveBenchOptions.Subscriber"/>), spread
/// over the gateways in turn, each read by <see cref="LiveClientReader"/> (receive, record, ack at once). A storm
/// (<see cref="LiveStorm"/>) drops them and connects them again, each with a fresh token.
/// </summary>
internal sealed class LiveClients(LiveArrivals arrivals, LiveAckProbe? probe, int ackSample) : IAsyncDisposable
{
    // Connection upgrades in flight at once: the gateway binds and reads the pending rows for each.
    private const int ConnectParallelism = 32;

    private readonly HttpMessageInvoker _invoker = LoopbackConnector.Create();
    // Cancelled when the clients close; not disposed: a late read may still look at its token.
    private readonly CancellationTokenSource _stop = new();
    private readonly LiveClientReader _reader = new(arrivals, probe, ackSample);
    private readonly List<LiveConnection> _clients = [];
    private LiveTokens? _tokens;

    /// <summary>The subscribers of the connected clients.</summary>
    public string[] Subscribers { get; private set; } = [];

    /// <summary>The connected clients.</summary>
    public IReadOnlyList<LiveConnection> Connections => _clients;

    /// <summary>Connections the gateway closed or that broke while the run went on (their notifications stay pending).</summary>
    public long ClosedByGateway => _reader.ClosedByGateway;

    /// <summary>Frames that were not a notification with an id.</summary>
    public long Unreadable => _reader.Unreadable;

    /// <summary>Cancelled when the clients close.</summary>
    public CancellationToken Stopping => _stop.Token;

    /// <summary>
    /// Connects clients <paramref name="first"/> … <paramref name="first"/> + <paramref name="clients"/> - 1, client k to gateway
    /// (k - 1) mod G, each upgrade timed.
    /// </summary>
    public async Task<LiveConnectTimes> ConnectAsync(int first, int clients, IReadOnlyList<Uri> gateways, LiveTokens tokens)
    {
        _tokens = tokens;
        var times = new double[clients];
        var connections = new LiveConnection?[clients];
        string? firstError = null;
        await Parallel.ForEachAsync(Enumerable.Range(first, clients), new ParallelOptions { MaxDegreeOfParallelism = ConnectParallelism }, async (k, ct) =>
        {
            var connection = new LiveConnection(LiveBenchOptions.Subscriber(k), gateways[(k - 1) % gateways.Count]);
            try
            {
                times[k - first] = await ConnectAsync(connection, ct);
                connections[k - first] = connection;
            }
            catch (Exception ex) when (IsConnectFailure(ex))
            {
                Interlocked.CompareExchange(ref firstError, ex.GetBaseException().Message, null);
            }
        });
        var connected = new List<double>(clients);
        for (int i = 0; i < clients; i++)
        {
            if (connections[i] is { } connection)
            {
                _clients.Add(connection);
                connected.Add(times[i]);
            }
        }

        Subscribers = _clients.Select(c => c.Subscriber).ToArray();
        return new LiveConnectTimes(connected, clients - connected.Count, firstError);
    }

    /// <summary>
    /// Connects <paramref name="connection"/> (again) with a fresh token, as an app asks its server for one before every
    /// attempt, and starts reading it; the upgrade's time, ms. A failure throws (<see cref="IsConnectFailure"/>).
    /// </summary>
    public async Task<double> ConnectAsync(LiveConnection connection, CancellationToken cancellationToken)
    {
        string token = (_tokens ?? throw new InvalidOperationException("connect the clients first")).Mint(connection.Subscriber);
        var uri = new UriBuilder(connection.Gateway) { Query = "access_token=" + Uri.EscapeDataString(token) }.Uri;
        var socket = new ClientWebSocket();
        // The gateway pings every 30 s; the clients add nothing of their own to the idle connections.
        socket.Options.KeepAliveInterval = TimeSpan.Zero;
        long started = Stopwatch.GetTimestamp();
        try
        {
            await socket.ConnectAsync(uri, _invoker, cancellationToken);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        double upgradeMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        connection.Attach(socket, (opened, ct) => _reader.ReadAsync(connection.Subscriber, opened, ct), _stop.Token);
        return upgradeMs;
    }

    /// <summary>Whether <paramref name="exception"/> is a connect that failed (refused, reset, an HTTP status instead of the upgrade).</summary>
    public static bool IsConnectFailure(Exception exception) => exception is WebSocketException or HttpRequestException or IOException;

    public async ValueTask DisposeAsync()
    {
        if (_stop.IsCancellationRequested)
        {
            return;   // closed already
        }

        await _stop.CancelAsync();
        await Task.WhenAll(_clients.Select(c => c.DropAsync()));
        _invoker.Dispose();
    }
}
