using Microsoft.Extensions.Logging;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using Notifications.Shared.Resilience;
using Polly;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Shared.Messaging;

/// <summary>Opens the one broker connection a worker process uses.</summary>
public static class RabbitConnector
{
    private static readonly TimeSpan FirstRetryDelay = TimeSpan.FromMilliseconds(250);

    /// <inheritdoc cref="ConnectAsync(RabbitMqOptions, string, ILogger, TimeProvider, CancellationToken)"/>
    public static Task<IConnection> ConnectAsync(
        RabbitMqOptions options, string clientName, ILogger logger, CancellationToken cancellationToken) =>
        ConnectAsync(options, clientName, logger, TimeProvider.System, cancellationToken);

    /// <summary>
    /// Connects, retrying with capped exponential backoff (<see cref="ConnectRetry"/>) until <paramref name="cancellationToken"/>
    /// fires. The client recovers a connection only after a first success, so the first connect is ours to retry;
    /// the outages after it are logged by <see cref="BrokerOutageLog"/>. With several
    /// <see cref="RabbitMqOptions.Endpoints"/> the client tries them in random order, at the first connect
    /// and at every recovery, so a worker follows the cluster when the node it was connected to goes away.
    /// </summary>
    public static async Task<IConnection> ConnectAsync(
        RabbitMqOptions options, string clientName, ILogger logger, TimeProvider time, CancellationToken cancellationToken)
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
        int attempt = 0;
        // Built once per process: a worker connects once, later outages are the client's to recover.
        var retry = ConnectRetry(options.MaxConnectRetryDelay, endpointList, logger, time);
        return await retry.ExecuteAsync(
            async token =>
            {
                attempt++;
                var connection = await factory.CreateConnectionAsync(endpoints, token);
                SharedLog.BrokerConnected(logger, connection.Endpoint.HostName, connection.Endpoint.Port, attempt);
                BrokerOutageLog.Attach(connection, logger);
                return connection;
            },
            cancellationToken);
    }

    /// <summary>
    /// The first connect's retry: 250 ms, doubling up to <paramref name="maxDelay"/>, until cancelled, for the failures
    /// of an unreachable broker; one line per failed attempt (<see cref="SharedLog.BrokerConnectFailed"/>), no stack trace.
    /// </summary>
    internal static ResiliencePipeline ConnectRetry(TimeSpan maxDelay, string endpointList, ILogger logger, TimeProvider time) =>
        RetryUntilStopped.Build("rabbitmq-connect", time, RetryUntilStopped.Options(
            FirstRetryDelay,
            maxDelay,
            jitter: false,
            handles: static ex => ex is BrokerUnreachableException or OperationInterruptedException or IOException or TimeoutException,
            onRetry: args =>
            {
                SharedLog.BrokerConnectFailed(
                    logger, endpointList, args.AttemptNumber + 1, ConnectionFailure.Describe(args.Outcome.Exception!), args.RetryDelay);
                return ValueTask.CompletedTask;
            }));
}
