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
    private volatile bool _inProgress;

    private ConnectionRecoveryWatch()
    {
    }

    /// <summary>From the loss of the connection (not a close by the application) until the client reports its recovery done.</summary>
    public bool InProgress => _inProgress;

    /// <summary>Watches <paramref name="connection"/> from now on.</summary>
    public static ConnectionRecoveryWatch Attach(IConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        var watch = new ConnectionRecoveryWatch();
        connection.ConnectionShutdownAsync += (_, args) =>
        {
            if (args.Initiator != ShutdownInitiator.Application)
            {
                watch._inProgress = true;
            }

            return Task.CompletedTask;
        };
        connection.RecoverySucceededAsync += (_, _) =>
        {
            watch._inProgress = false;
            return Task.CompletedTask;
        };
        return watch;
    }
}
