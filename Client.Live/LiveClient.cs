using System.Net.WebSockets;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Polly;
using Polly.Retry;

namespace Notifications.Client.Live;

/// <summary>
/// A client of the live gateway for one subscriber: enumerate <see cref="ReadAllAsync"/> and it connects, hands over each
/// notification once, and reconnects when the connection drops (full-jitter exponential back-off, a fresh token each
/// time); the gateway sends what is not acked yet on every connect, so nothing is lost while it was away.
/// <code>
/// await using var live = new LiveClient(new LiveClientOptions { Uri = gateway, TokenProvider = api.GetLiveTokenAsync });
/// live.StateChanged += (_, e) => status.Text = e.State.ToString();
/// await foreach (var notification in live.ReadAllAsync(cancellationToken))
/// {
///     Show(notification);
///     await live.AckAsync(notification.Id, cancellationToken);
/// }
/// </code>
/// </summary>
public sealed partial class LiveClient : IAsyncDisposable
{
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(2);
    private readonly LiveClientOptions _options;
    private readonly ILogger _logger;
    private readonly RecentIds _recent;
    private readonly FullJitterBackoff _backoff;
    private readonly ResiliencePipeline _connect;
    private readonly SemaphoreSlim _sending = new(1, 1);
    private readonly CancellationTokenSource _disposed = new();
    private ClientWebSocket? _socket;
    private Task? _run;
    private int _attempt;
    private int _reading;
    private volatile bool _closing;

    /// <summary>A client with <paramref name="options"/>; it connects when <see cref="ReadAllAsync"/> is enumerated.</summary>
    /// <param name="options">Where to connect and how to get tokens.</param>
    /// <param name="logger">Where it logs its connections (EventIds 7100-7119); none by default.</param>
    public LiveClient(LiveClientOptions options, ILogger<LiveClient>? logger = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        _options = options;
        _logger = (ILogger?)logger ?? NullLogger.Instance;
        _recent = new RecentIds(options.RecentIdCapacity);
        _backoff = new FullJitterBackoff(options.MinReconnectDelay, options.MaxReconnectDelay);
        _connect = new ResiliencePipelineBuilder().AddRetry(new RetryStrategyOptions
        {
            MaxRetryAttempts = int.MaxValue,
            // Everything but the reader's own stop: a refused token, a gateway that is down, a timeout, a failing token provider.
            ShouldHandle = args => ValueTask.FromResult(args.Outcome.Exception is not null && !args.Context.CancellationToken.IsCancellationRequested),
            DelayGenerator = args => ValueTask.FromResult<TimeSpan?>(_backoff.Delay(args.AttemptNumber)),
            OnRetry = args =>
            {
                OnConnectFailed(args.AttemptNumber + 1, args.RetryDelay, args.Outcome.Exception!);
                return default;
            },
        }).Build();
    }

    /// <summary>
    /// Connection changes: connecting, connected, disconnected (with the error and the pause before the next attempt), a
    /// refused token (<see cref="LiveTokenRefusedException"/> with the gateway's reason), closed. Raised on the client's
    /// own loop: keep handlers short.
    /// </summary>
    public event EventHandler<LiveStateChangedEventArgs>? StateChanged;

    /// <summary>
    /// Connects and yields each notification once, as long as it is enumerated: a copy of an id already handed over (a
    /// replay after a reconnect) is not yielded again. Ends when <paramref name="cancellationToken"/> fires (throwing
    /// <see cref="OperationCanceledException"/>) or the enumeration stops; it then closes the connection. One enumeration at a time.
    /// </summary>
    public async IAsyncEnumerable<LiveNotification> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        if (Interlocked.Exchange(ref _reading, 1) == 1)
        {
            throw new InvalidOperationException("A LiveClient has one reader at a time.");
        }

        _closing = false;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _disposed.Token);
        var received = Channel.CreateBounded<LiveNotification>(new BoundedChannelOptions(256) { SingleReader = true, SingleWriter = true });
        var run = RunAsync(received.Writer, stop.Token);
        Volatile.Write(ref _run, run);
        try
        {
            await foreach (var notification in received.Reader.ReadAllAsync(stop.Token))
            {
                yield return notification;
                if (_options.AutoAck)
                {
                    await AckAsync(notification.Id, stop.Token);
                }
            }
        }
        finally
        {
            await StopAsync(run, stop);
            while (received.Reader.TryRead(out var unread))
            {
                _recent.Forget(unread.Id);
            }

            Volatile.Write(ref _reading, 0);
        }
    }

    /// <summary>
    /// Acks <paramref name="id"/>: the gateway deletes its pending copy. An ack made while disconnected is recorded and sent
    /// again when the gateway replays that notification; acking an id the app got another way (a push copy) keeps a live
    /// copy of it from being shown.
    /// </summary>
    /// <exception cref="ArgumentException">The id is not a notification id (decimal digits).</exception>
    public async Task AckAsync(string id, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(id);
        if (!LiveFrames.IsId(id))
        {
            throw new ArgumentException("A notification id is a string of decimal digits.", nameof(id));
        }

        _recent.Ack(id);
        if (Volatile.Read(ref _socket) is { State: WebSocketState.Open } socket)
        {
            await SendAckAsync(socket, id, cancellationToken);
        }
    }

    /// <summary>Stops a running enumeration and closes the connection.</summary>
    public async ValueTask DisposeAsync()
    {
        await _disposed.CancelAsync();
        if (Volatile.Read(ref _run) is { } run)
        {
            await run;
        }
    }

    // A close handshake first, so the gateway sees a client that left, not a connection that broke; then the loop stops.
    private async Task StopAsync(Task run, CancellationTokenSource stop)
    {
        _closing = true;
        if (Volatile.Read(ref _socket) is { State: WebSocketState.Open } socket && !stop.IsCancellationRequested)
        {
            using var timeout = new CancellationTokenSource(CloseTimeout);
            try
            {
                await _sending.WaitAsync(timeout.Token);
                try
                {
                    await socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, timeout.Token);
                }
                finally
                {
                    _sending.Release();
                }

                await run.WaitAsync(timeout.Token);
            }
            catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or ObjectDisposedException)
            {
                LiveClientLog.CloseNotClean(_logger, ex);
            }
        }

        await stop.CancelAsync();
        await run;
        Report(LiveClientState.Closed, 0, null, null);
    }
}
