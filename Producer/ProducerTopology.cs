using Microsoft.Extensions.Logging;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Producer;

/// <summary>
/// Opens the producer's publishing channel. It declares the topology while its broker user may (a user with configure
/// rights, as in the tests: a deleted queue or binding is then repaired by the next channel); the producer's own user
/// (<see cref="BrokerPermissions.Producer"/>) may not — the broker answers ACCESS_REFUSED once, and from then on the
/// producer only checks passively that the consumers have declared it (<see cref="RabbitTopology.CheckDeclaredAsync"/>),
/// failing the batch (the rows stay in the outbox) until they have.
/// </summary>
internal sealed class ProducerTopology(RabbitMqOptions rabbit, ILogger logger)
{
    private const ushort AccessRefused = 403;
    private volatile bool _mayDeclare = true;

    public async Task<IChannel> OpenChannelAsync(IConnection connection, CancellationToken cancellationToken)
    {
        var channel = await CreateAsync(connection, cancellationToken);
        if (_mayDeclare)
        {
            try
            {
                await RabbitTopology.DeclareAsync(channel, rabbit, cancellationToken);
                return channel;
            }
            catch (OperationInterruptedException ex) when (ex.ShutdownReason?.ReplyCode == AccessRefused)
            {
                _mayDeclare = false;
                ProducerLog.TopologyCheckedOnly(logger, ex.ShutdownReason.ReplyText);
                await channel.DisposeAsync();
                channel = await CreateAsync(connection, cancellationToken);
            }
        }

        try
        {
            await RabbitTopology.CheckDeclaredAsync(channel, rabbit, cancellationToken);
            return channel;
        }
        catch
        {
            await channel.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// Whether a channel that saw <paramref name="failure"/> is to be replaced (a closed channel, a return after a queue was
    /// deleted): the next one declares the topology (or, without the right, checks it) again. The lanes' and the fan-out's.
    /// </summary>
    public static bool IsSpent(IChannel channel, Exception failure) =>
        !channel.IsOpen || failure is PublishException or AlreadyClosedException;

    // Tracking on: each publish's task completes with its confirm. No client-side rate limiter:
    // the batch size already bounds the publishes in flight.
    private static Task<IChannel> CreateAsync(IConnection connection, CancellationToken cancellationToken) =>
        connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true,
                outstandingPublisherConfirmationsRateLimiter: null),
            cancellationToken);
}
