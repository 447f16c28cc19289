using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Admin.Status;

/// <summary>
/// Gathers a <see cref="StatusReport"/>: the outbox backlog per priority (counted up to <see cref="OutboxBacklog.DefaultCap"/>),
/// the delivery rate and SLO over a window (the delivery log), the fleet's rate limits (<c>rate_limit</c>), the depth and consumers of every queue (AMQP passive
/// declares). Reads what it can reach; what it cannot is an error in the report, not an exception.
/// </summary>
internal static class StatusReader
{
    /// <summary>The most <c>rate_limit</c> rows shown (one a limited domain and the relay: a few in practice).</summary>
    public const int RateLimitCap = 100;

    /// <summary>
    /// Reads the status; the queues through the connection <paramref name="borrow"/> lends when given (the console keeps one open),
    /// else through a connection of its own, closed after.
    /// </summary>
    public static async Task<StatusReport> ReadAsync(
        AdminContext admin, TimeSpan window, Func<CancellationToken, Task<IConnection>>? borrow, CancellationToken cancellationToken)
    {
        var at = DateTimeOffset.UtcNow;
        var errors = new List<AdminException>();
        OutboxBacklog? backlog = null;
        DeliveryWindow? deliveries = null;
        IReadOnlyList<RateLimitState>? rateLimits = null;
        try
        {
            backlog = await admin.DatabaseAsync(() => admin.Outbox.CountByPriorityAsync(OutboxBacklog.DefaultCap, cancellationToken));
            deliveries = await admin.DatabaseAsync(() => admin.Operations.GetDeliveryWindowAsync(window, cancellationToken));
            rateLimits = await admin.DatabaseAsync(() => admin.Operations.ListRateLimitsAsync(RateLimitCap, cancellationToken));
        }
        catch (AdminException ex)
        {
            errors.Add(ex);
        }

        IReadOnlyList<QueueDepth>? queues = null;
        try
        {
            queues = borrow is null
                ? await ReadQueuesAsync(admin, cancellationToken)
                : await ReadQueuesAsync(admin.Rabbit, await borrow(cancellationToken), cancellationToken);
        }
        catch (AdminException ex)
        {
            errors.Add(ex);
        }

        return new StatusReport(at, backlog, deliveries, rateLimits, queues, errors);
    }

    /// <summary>The queues the workers declare: each lane's work queue and its retry queues, the dead-letter queue and inbox.</summary>
    public static IReadOnlyList<string> QueueNames(RabbitMqOptions rabbit) => rabbit.WorkQueues
        .SelectMany(work => Enumerable.Range(1, rabbit.RetryDelays.Length).Select(n => RabbitMqOptions.RetryQueue(work, n)).Prepend(work))
        .Append(rabbit.DeadLetterQueue)
        .Append(rabbit.DeadLetterInbox)
        .ToList();

    private static async Task<IReadOnlyList<QueueDepth>> ReadQueuesAsync(AdminContext admin, CancellationToken cancellationToken)
    {
        await using var connection = await admin.ConnectAsync(cancellationToken);
        return await ReadQueuesAsync(admin.Rabbit, connection, cancellationToken);
    }

    private static async Task<IReadOnlyList<QueueDepth>> ReadQueuesAsync(RabbitMqOptions rabbit, IConnection connection, CancellationToken cancellationToken)
    {
        var depths = new List<QueueDepth>();
        foreach (string queue in QueueNames(rabbit))
        {
            depths.Add(await DescribeAsync(connection, queue, cancellationToken));
        }

        return depths;
    }

    private static async Task<QueueDepth> DescribeAsync(IConnection connection, string queue, CancellationToken cancellationToken)
    {
        try
        {
            // A passive declare of a missing queue closes its channel: one channel per queue.
            await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
            var ok = await channel.QueueDeclarePassiveAsync(queue, cancellationToken);
            return new QueueDepth(queue, ok.MessageCount, ok.ConsumerCount, Missing: false);
        }
        catch (OperationInterruptedException ex) when (ex.ShutdownReason?.ReplyCode == 404)
        {
            return new QueueDepth(queue, 0, 0, Missing: true);
        }
        catch (Exception ex) when (ex is OperationInterruptedException or AlreadyClosedException or IOException or TimeoutException)
        {
            throw new AdminException($"RabbitMQ: reading {queue} failed: {AdminContext.Innermost(ex).Message}", ExitCodes.Unavailable, ex);
        }
    }
}
