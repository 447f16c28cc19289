using Notifications.Shared.Hosting;

namespace Notifications.Shared.Messaging;

/// <summary>What a queue of the topology is for; its declare arguments follow from it.</summary>
public enum QueueRole
{
    /// <summary>A queue consumers read (the work queue).</summary>
    Work,

    /// <summary>A delay queue: holds a message for its TTL, then dead-letters it back to a work queue.</summary>
    Retry,

    /// <summary>The dead-letter queue: keeps what will never be sent.</summary>
    DeadLetter,

    /// <summary>
    /// Where the broker dead-letters on its own (delivery limit, expiry, rejection): the consumers record each message
    /// there, then move it to the dead-letter queue.
    /// </summary>
    DeadLetterInbox,
}

/// <summary>
/// The one place where the <c>x-…</c> arguments of every queue the workers declare are built, from
/// <see cref="RabbitMqOptions.QueueType"/> and the queue's <see cref="QueueRole"/>.
/// </summary>
/// <remarks>
/// Classic queues keep exactly the arguments they always had (none, or TTL and dead-letter target for a
/// delay queue), so existing deployments redeclare them unchanged. Quorum queues (RabbitMQ 3.10 semantics):
/// <list type="bullet">
/// <item><c>x-queue-type=quorum</c> on every queue: a message is confirmed to the producer once a majority
/// of the nodes has it.</item>
/// <item>the work queue gets <c>x-delivery-limit</c> (<see cref="RabbitMqOptions.DeliveryLimit"/>) and a
/// dead-letter target, the dead-letter inbox (<see cref="RabbitMqOptions.DeadLetterInbox"/>): a message handed out that
/// often without an ack — e.g. one that crashes every consumer before an attempt is counted — or expired in the queue
/// (a TTL policy) is dead-lettered by the broker itself, into the inbox, where a consumer records it in the
/// <c>dead_letter</c> table before it moves it to the dead-letter queue.</item>
/// <item>the inbox dead-letters to the dead-letter queue: a broker with a default delivery limit (RabbitMQ 4) moves a
/// message the recorders handed back that often there unrecorded instead of dropping it.</item>
/// <item>delay queues keep <c>x-message-ttl</c> (quorum queues have message TTL since 3.10) and the per-message
/// expiration the consumer sets for jitter.</item>
/// <item>whatever dead-letters (work and delay queues) does so <c>at-least-once</c>
/// (<c>x-dead-letter-strategy</c>, 3.10): the source keeps the message until the target queue confirmed it,
/// so a node failure during the move loses nothing. The broker accepts that strategy only with
/// <c>x-overflow=reject-publish</c> (with any other overflow it falls back to at-most-once); there is no
/// length limit, so nothing is ever rejected by it.</item>
/// </list>
/// The type of an existing queue cannot change, nor its dead-letter target (the broker refuses the declare with
/// PRECONDITION_FAILED): switching needs new queue names or drained and deleted queues, see README and
/// docs/reliability.md (quorum work queues declared before the inbox dead-lettered to the dead-letter queue).
/// </remarks>
public static class QueueArguments
{
    /// <summary>The declare arguments of a queue with <paramref name="role"/>.</summary>
    /// <param name="options">Queue type, exchange, delivery limit and queue names.</param>
    /// <param name="role">What the queue is for.</param>
    /// <param name="delay">Retry queues: how long a message waits before it returns.</param>
    /// <param name="returnTo">Retry queues: the work queue (routing key) a message returns to; default <see cref="RabbitMqOptions.Queue"/>.</param>
    public static Dictionary<string, object?> For(RabbitMqOptions options, QueueRole role, TimeSpan? delay = null, string? returnTo = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        bool quorum = options.QueueType == RabbitQueueType.Quorum;
        var arguments = new Dictionary<string, object?>();
        if (quorum)
        {
            arguments["x-queue-type"] = "quorum";
        }

        switch (role)
        {
            case QueueRole.Retry:
                arguments["x-message-ttl"] = (long)(delay ?? throw new ArgumentNullException(nameof(delay), "a retry queue needs its delay")).TotalMilliseconds;
                DeadLetterTo(arguments, options, returnTo ?? options.Queue, quorum);
                break;
            case QueueRole.Work when quorum:
                arguments["x-delivery-limit"] = options.DeliveryLimit;
                DeadLetterTo(arguments, options, options.DeadLetterInbox, quorum);
                break;
            case QueueRole.DeadLetterInbox when quorum:
                DeadLetterTo(arguments, options, options.DeadLetterQueue, quorum);
                break;
        }

        return arguments;
    }

    private static void DeadLetterTo(Dictionary<string, object?> arguments, RabbitMqOptions options, string routingKey, bool quorum)
    {
        arguments["x-dead-letter-exchange"] = options.Exchange;
        arguments["x-dead-letter-routing-key"] = routingKey;
        if (quorum)
        {
            arguments["x-dead-letter-strategy"] = "at-least-once";
            arguments["x-overflow"] = "reject-publish";
        }
    }
}
