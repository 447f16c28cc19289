using Notifications.Shared.Hosting;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Shared.Messaging;

/// <summary>
/// Declares the exchange and queues both workers rely on. Idempotent: every consumer declares on start; the producer
/// declares too when its broker user may, and otherwise (its own user, <see cref="BrokerPermissions.Producer"/>, may only
/// publish) checks passively and retries until a consumer has declared them: the order in which producers and consumers
/// start still does not matter.
/// </summary>
/// <remarks>
/// <c>{Queue}</c> is the work queue of normal and bulk notifications, <c>{Queue}.urgent</c> the urgent lane's;
/// <c>{lane queue}.retry.N</c> hold a transiently failed message for the N-th delay, then dead-letter it back
/// to its lane's queue; <c>{Queue}.dead</c> keeps what will never be sent, with the reason in its headers;
/// <c>{Queue}.dead.inbox</c> takes what the broker dead-letters on its own, until a consumer recorded and moved it;
/// <c>{Exchange}.live</c> routes live notifications to the gateway nodes.
/// The queues' arguments (queue type, TTL, dead-letter targets, delivery limit) come from <see cref="QueueArguments"/>.
/// </remarks>
public static class RabbitTopology
{
    /// <summary>Declares everything; safe to call concurrently from several workers.</summary>
    public static async Task DeclareAsync(IChannel channel, RabbitMqOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(channel);
        ArgumentNullException.ThrowIfNull(options);
        await channel.ExchangeDeclareAsync(options.Exchange, ExchangeType.Direct, durable: true, autoDelete: false,
            cancellationToken: cancellationToken);
        await DeclareLiveExchangeAsync(channel, options, cancellationToken);
        await DeclareBoundQueueAsync(channel, options, options.DeadLetterQueue, QueueArguments.For(options, QueueRole.DeadLetter), cancellationToken);
        await DeclareBoundQueueAsync(channel, options, options.DeadLetterInbox, QueueArguments.For(options, QueueRole.DeadLetterInbox), cancellationToken);
        foreach (string workQueue in options.WorkQueues)
        {
            await DeclareBoundQueueAsync(channel, options, workQueue, QueueArguments.For(options, QueueRole.Work), cancellationToken);
            for (int attempt = 1; attempt <= options.RetryDelays.Length; attempt++)
            {
                var arguments = QueueArguments.For(options, QueueRole.Retry, options.RetryDelays[attempt - 1], returnTo: workQueue);
                await DeclareBoundQueueAsync(channel, options, RabbitMqOptions.RetryQueue(workQueue, attempt), arguments, cancellationToken);
            }
        }
    }

    /// <summary>
    /// The live channel's exchange (<see cref="RabbitMqOptions.LiveExchange"/>), declared by the consumers that publish to it
    /// and by the gateway nodes that bind their queues to it, whichever starts first.
    /// </summary>
    public static Task DeclareLiveExchangeAsync(IChannel channel, RabbitMqOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(channel);
        ArgumentNullException.ThrowIfNull(options);
        return channel.ExchangeDeclareAsync(options.LiveExchange, ExchangeType.Direct, durable: true, autoDelete: false,
            cancellationToken: cancellationToken);
    }

    /// <summary>
    /// Checks passively (no configure permission needed) that the exchange and the work queues exist; throws
    /// <see cref="TopologyMissingException"/> when one does not (the broker closed <paramref name="channel"/> then).
    /// </summary>
    public static async Task CheckDeclaredAsync(IChannel channel, RabbitMqOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(channel);
        ArgumentNullException.ThrowIfNull(options);
        string name = options.Exchange;
        try
        {
            await channel.ExchangeDeclarePassiveAsync(name, cancellationToken);
            foreach (string queue in options.WorkQueues)
            {
                name = queue;
                await channel.QueueDeclarePassiveAsync(queue, cancellationToken);
            }
        }
        catch (OperationInterruptedException ex) when (ex.ShutdownReason?.ReplyCode == NotFound)
        {
            throw new TopologyMissingException(
                $"'{name}' is not declared on the broker yet (a consumer declares the topology when it starts); waiting for it", ex);
        }
    }

    private const ushort NotFound = 404;

    private static async Task DeclareBoundQueueAsync(
        IChannel channel, RabbitMqOptions options, string queue, Dictionary<string, object?>? arguments, CancellationToken cancellationToken)
    {
        await channel.QueueDeclareAsync(queue, durable: true, exclusive: false, autoDelete: false, arguments,
            cancellationToken: cancellationToken);
        // Each queue is bound under its own name, so publishing to the exchange with routing key = queue
        // name reaches exactly that queue; an unbound name comes back as a mandatory return.
        await channel.QueueBindAsync(queue, options.Exchange, queue, cancellationToken: cancellationToken);
    }
}
