using Microsoft.Extensions.Logging;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Shared.Messaging;

/// <summary>Opens the one broker connection a worker process uses.</summary>
public static class RabbitConnector
{
    /// <summary>
    /// Connects, retrying with capped exponential backoff until <paramref name="cancellationToken"/> fires.
    /// The client recovers a connection only after a first success, so the first connect is ours to retry;
    /// the outages after it are logged by <see cref="BrokerOutageLog"/>. With several
    /// <see cref="RabbitMqOptions.Endpoints"/> the client tries them in random order, at the first connect
    /// and at every recovery, so a worker follows the cluster when the node it was connected to goes away.
    /// </summary>
    public static async Task<IConnection> ConnectAsync(
        RabbitMqOptions options, string clientName, ILogger logger, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var factory = new ConnectionFactory
        {
            Uri = options.Uri,
            ClientProvidedName = clientName,
            AutomaticRecoveryEnabled = true,
            TopologyRecoveryEnabled = true,
            NetworkRecoveryInterval = TimeSpan.FromSeconds(2),
            RequestedHeartbeat = options.Heartbeat,
            RequestedConnectionTimeout = TimeSpan.FromSeconds(10),
            ContinuationTimeout = TimeSpan.FromSeconds(20),
        };
        var endpoints = options.BrokerEndpoints();
        string endpointList = string.Join(", ", endpoints.Select(e => $"{e.HostName}:{e.Port}"));
        var delay = TimeSpan.FromMilliseconds(250);
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                var connection = await factory.CreateConnectionAsync(endpoints, cancellationToken);
                SharedLog.BrokerConnected(logger, connection.Endpoint.HostName, connection.Endpoint.Port, attempt);
                BrokerOutageLog.Attach(connection, logger);
                return connection;
            }
            catch (Exception ex) when (ex is BrokerUnreachableException or OperationInterruptedException or IOException
                                           or TimeoutException && !cancellationToken.IsCancellationRequested)
            {
                SharedLog.BrokerConnectFailed(logger, endpointList, attempt, ConnectionFailure.Describe(ex), delay);
                await Task.Delay(delay, cancellationToken);
                delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, options.MaxConnectRetryDelay.Ticks));
            }
        }
    }
}
