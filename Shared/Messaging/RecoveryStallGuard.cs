using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Shared.Messaging;

/// <summary>
/// Notices a broker connection the client stopped recovering: closed by the broker or the network, and no reconnect tried,
/// failed or succeeded for <see cref="StallAfter"/>. RabbitMQ.Client 7.2.2 starts no new recovery when the connection it
/// just brought back is closed again before its recovery task has ended (its recovery task is still set, so the second
/// close is dropped): a broker that accepts a connection and then refuses it, as RabbitMQ does for a vhost at its
/// connection limit (open-ok, then close 530 NOT_ALLOWED), left a producer failing on the closed connection for good
/// (fixed upstream in rabbitmq-dotnet-client#2004, after 7.2.2, the newest version served here). A worker cannot restart
/// the client's recovery, so the guard logs it and the worker stops with exit code 3 (<see cref="StopWorker"/>), for its
/// supervisor (swarm's restart policy, systemd) to start it again with a new connection.
/// </summary>
public sealed class RecoveryStallGuard : IDisposable
{
    /// <summary>
    /// Longer than one recovery attempt can take without an event: the recovery interval (2 s), a TCP connect (10 s), the
    /// handshake's and the topology's replies (20 s each), twice over.
    /// </summary>
    public static readonly TimeSpan DefaultStallAfter = TimeSpan.FromSeconds(100);

    private readonly IConnection _connection;
    private readonly ILogger _logger;
    private readonly TimeProvider _time;
    private readonly Action _stopWorker;
    private readonly ITimer _timer;
    private long _lastEvent;   // TimeProvider timestamp of the last shutdown or recovery event
    private int _stalled;

    private RecoveryStallGuard(IConnection connection, ILogger logger, TimeProvider time, TimeSpan stallAfter, Action stopWorker)
    {
        _connection = connection;
        _logger = logger;
        _time = time;
        StallAfter = stallAfter;
        _stopWorker = stopWorker;
        _lastEvent = time.GetTimestamp();
        var every = stallAfter / 5;
        _timer = time.CreateTimer(_ => Check(), null, every, every);
    }

    /// <summary>How long a closed connection may go without a recovery event before it counts as given up.</summary>
    public TimeSpan StallAfter { get; }

    /// <summary>
    /// Watches <paramref name="connection"/> from now on; on a stall it logs why and calls <paramref name="stopWorker"/>
    /// (<see cref="StopWorker"/>), once, from a timer.
    /// </summary>
    public static RecoveryStallGuard Attach(IConnection connection, ILogger logger, TimeProvider time, TimeSpan stallAfter, Action stopWorker)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(logger);
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(stopWorker);
        var guard = new RecoveryStallGuard(connection, logger, time, stallAfter, stopWorker);
        connection.ConnectionShutdownAsync += guard.OnEventAsync;
        connection.ConnectionRecoveryErrorAsync += guard.OnEventAsync;
        connection.RecoverySucceededAsync += guard.OnEventAsync;
        return guard;
    }

    /// <summary>The workers' exit code when they stop over a connection the client gave up: the broker is unavailable.</summary>
    public const int ExitCodeStalled = 3;

    /// <summary>The workers' action on a stall: exit code 3 (WorkerCommandLine returns it), and the host stops.</summary>
    public static Action StopWorker(IHostApplicationLifetime lifetime)
    {
        ArgumentNullException.ThrowIfNull(lifetime);
        return () =>
        {
            Environment.ExitCode = ExitCodeStalled;
            lifetime.StopApplication();
        };
    }

    /// <summary>Stops watching (the worker's own close at shutdown comes after).</summary>
    public void Dispose()
    {
        _timer.Dispose();
        _connection.ConnectionShutdownAsync -= OnEventAsync;
        _connection.ConnectionRecoveryErrorAsync -= OnEventAsync;
        _connection.RecoverySucceededAsync -= OnEventAsync;
    }

    private Task OnEventAsync(object sender, ShutdownEventArgs args) => Touch();

    private Task OnEventAsync(object sender, ConnectionRecoveryErrorEventArgs args) => Touch();

    private Task OnEventAsync(object sender, AsyncEventArgs args) => Touch();

    private Task Touch()
    {
        Interlocked.Exchange(ref _lastEvent, _time.GetTimestamp());
        return Task.CompletedTask;
    }

    private void Check()
    {
        // Closed by the application (shutdown) is no stall; open is none either.
        if (_connection.IsOpen || _connection.CloseReason is { Initiator: ShutdownInitiator.Application }
            || _time.GetElapsedTime(Interlocked.Read(ref _lastEvent)) < StallAfter
            || Interlocked.Exchange(ref _stalled, 1) != 0)
        {
            return;
        }

        SharedLog.BrokerRecoveryStalled(_logger, _connection.CloseReason?.ReplyText ?? "no reason given", StallAfter);
        _stopWorker();
    }
}
