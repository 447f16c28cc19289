using RabbitMQ.Client;

namespace Notifications.Shared.Messaging;

/// <summary>
/// Whether the client is bringing a lost connection back. Its recovery reopens the connection first, then declares the
/// recorded topology again and only then recovers the channels and their consumers; the connection is open again long
/// before that ends (seconds on a loaded machine). A worker that replaces a closed channel of its own meanwhile races
/// the recovery of the same channel: the old one comes back with its consumer, and its deliveries reach an object the
/// worker has given up (their acks never written, the messages held until the connection closes).
/// </summary>
public sealed class ConnectionRecoveryWatch
{
    private readonly IConnection _connection;
    private volatile bool _inProgress;
    // Completed (and replaced) at each loss and each recovery: what a waiter waits on between its looks.
    private TaskCompletionSource _changed = NewSignal();

    private ConnectionRecoveryWatch(IConnection connection) => _connection = connection;

    /// <summary>From the loss of the connection (not a close by the application) until the client reports its recovery done.</summary>
    public bool InProgress => _inProgress;

    /// <summary>Watches <paramref name="connection"/> from now on.</summary>
    public static ConnectionRecoveryWatch Attach(IConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        var watch = new ConnectionRecoveryWatch(connection);
        connection.ConnectionShutdownAsync += (_, args) =>
        {
            if (args.Initiator != ShutdownInitiator.Application)
            {
                watch._inProgress = true;
            }

            watch.Changed();
            return Task.CompletedTask;
        };
        connection.RecoverySucceededAsync += (_, _) =>
        {
            watch._inProgress = false;
            watch.Changed();
            return Task.CompletedTask;
        };
        return watch;
    }

    /// <summary>
    /// Completes when the connection is open and no recovery is under way: at once if so, else when the client reports its
    /// recovery done. It waits for the connection's events, without polling: a connection that never comes back waits
    /// until <paramref name="cancellationToken"/> fires. The connection's state is looked at, not only the events, so it does
    /// not matter whether a caller that met the connection closed is ahead of the loss's event or behind it.
    /// </summary>
    public async Task WaitUntilRecoveredAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var changed = Volatile.Read(ref _changed);
            if (_connection.IsOpen && !_inProgress)
            {
                return;
            }

            await changed.Task.WaitAsync(cancellationToken);
        }
    }

    private void Changed() => Interlocked.Exchange(ref _changed, NewSignal()).TrySetResult();

    private static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
