using RabbitMQ.Client;

namespace Notifications.Shared.Observability;

/// <summary>
/// What the health endpoints report about a worker: when its loop last went round (liveness) and
/// whether its broker connection is open (readiness, with the database check).
/// </summary>
public sealed class WorkerHealth(TimeProvider time)
{
    private long _lastBeat = time.GetTimestamp();
    private IConnection? _connection;

    /// <summary>The worker's loop is alive; called once per iteration.</summary>
    public void Beat() => Interlocked.Exchange(ref _lastBeat, time.GetTimestamp());

    /// <summary>The connection the worker uses; readiness follows its state (the client recovers it).</summary>
    public void BrokerConnected(IConnection connection) => Volatile.Write(ref _connection, connection);

    /// <summary>How long ago the loop last reported.</summary>
    public TimeSpan SinceLastBeat => time.GetElapsedTime(Interlocked.Read(ref _lastBeat));

    /// <summary>Whether the worker holds an open broker connection.</summary>
    public bool IsBrokerConnected => Volatile.Read(ref _connection) is { IsOpen: true };
}
