using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Outcomes;
using Notifications.Shared.Resilience;
using Polly;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Consumer.DeadLetterInbox;

/// <summary>
/// Every consumer process competes for the dead-letter inbox (<see cref="RabbitMqOptions.DeadLetterInbox"/>), where the broker
/// dead-letters on its own, on its own channel of the consumer's connection (run by <c>ConsumerService</c>, whose confirm channel
/// publishes the dead letters): for each message, one at a time, the <c>dead_letter</c> rows (one statement, idempotent by key), then
/// each dead letter published to the dead-letter queue with a confirm, then the ack. A failure keeps the message unacked and tries
/// again (1 s doubling to 30 s) until it succeeds or the worker stops; a crash or stop at any point gives the message back, and
/// its copy records nothing new (<see cref="InboxLetter"/>) and publishes again: at least once, a duplicate in the dead-letter queue
/// at worst, with one row.
/// </summary>
internal sealed class InboxRecorder(
    IOptions<RabbitMqOptions> rabbitOptions, IDeadLetterStore store, OutcomeSubscriptions subscriptions, TimeProvider time, FaultInjector faults,
    ILogger<InboxRecorder> logger)
{
    private const ushort Prefetch = 16;
    private const int ClosedTicksBeforeReopen = 3;
    private readonly RabbitMqOptions _rabbit = rabbitOptions.Value;
    private readonly ResiliencePipeline _retry = RetryUntilStopped.Build("dead-letter inbox", time, RetryUntilStopped.Options(
        TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30), jitter: true, handles: ex => ex is not OutOfMemoryException,
        onRetry: args =>
        {
            ConsumerLog.BrokerDeadLetterFailed(logger, args.AttemptNumber + 1, args.RetryDelay, args.Outcome.Exception!);
            return ValueTask.CompletedTask;
        }));

    // Delivery tags belong to one incarnation of the channel: an ack of a tag from before a recovery is dropped (its copy comes back).
    private long _generation;

    /// <summary>Consumes the inbox until <paramref name="stoppingToken"/> fires; a channel closed by a channel error is replaced.</summary>
    public async Task RunAsync(IConnection connection, ConnectionRecoveryWatch recovery, OutboundPublisher outbound, CancellationToken stoppingToken)
    {
        connection.ConnectionShutdownAsync += (_, _) =>
        {
            Interlocked.Increment(ref _generation);
            return Task.CompletedTask;
        };
        IChannel? channel = null;
        try
        {
            int closedTicks = 0;
            while (!stoppingToken.IsCancellationRequested)
            {
                // Opened at the start, again after a failed open (every 5 s), and in place of a channel closed on its own: as the
                // consumer's channels, only one still closed after several looks, its connection open and recovered (one closed with
                // its connection is the client's to bring back).
                if (channel is null || closedTicks >= ClosedTicksBeforeReopen)
                {
                    channel = await ReopenAsync(connection, outbound, channel, stoppingToken);
                    closedTicks = 0;
                }

                await Task.Delay(TimeSpan.FromSeconds(channel is null ? 5 : 1), time, stoppingToken);
                closedTicks = channel is null || channel.IsOpen || !connection.IsOpen || recovery.InProgress ? 0 : closedTicks + 1;
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
        finally
        {
            // Closing the channel gives back what it holds unacked: the next consumer records it (idempotent).
            if (channel is not null)
            {
                await channel.DisposeAsync();
            }
        }
    }

    private async Task<IChannel?> ReopenAsync(IConnection connection, OutboundPublisher outbound, IChannel? closed, CancellationToken stoppingToken)
    {
        if (closed is not null)
        {
            ConsumerLog.InboxChannelReopened(logger);
            await closed.DisposeAsync();
        }

        try
        {
            var channel = await OpenAsync(connection, outbound, stoppingToken);
            ConsumerLog.InboxStarted(logger, _rabbit.DeadLetterInbox, _rabbit.DeadLetterQueue);
            return channel;
        }
        catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
        {
            ConsumerLog.InboxOpenFailed(logger, _rabbit.DeadLetterInbox, ex);
            return null;
        }
    }

    private async Task<IChannel> OpenAsync(IConnection connection, OutboundPublisher outbound, CancellationToken stoppingToken)
    {
        var channel = await connection.CreateChannelAsync(cancellationToken: stoppingToken);
        await RabbitTopology.DeclareAsync(channel, _rabbit, stoppingToken);
        await channel.BasicQosAsync(0, Prefetch, global: false, stoppingToken);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, args) => HandleAsync(channel, outbound, args, stoppingToken);
        await channel.BasicConsumeAsync(_rabbit.DeadLetterInbox, autoAck: false, consumer, stoppingToken);
        return channel;
    }

    private async Task HandleAsync(IChannel channel, OutboundPublisher outbound, BasicDeliverEventArgs args, CancellationToken stoppingToken)
    {
        long generation = Interlocked.Read(ref _generation);
        var items = InboxLetter.Split(args.BasicProperties, args.Body.ToArray(), time.GetUtcNow());
        try
        {
            await _retry.ExecuteAsync(async ct =>
            {
                await store.RecordAsync([.. items.Select(i => i.Record)], await EventsAsync(items, ct), ct);
                faults.Reached("after-inbox-row");
                foreach (var item in items)
                {
                    await outbound.MoveToDeadLetterQueueAsync(item, ct);
                }
            }, stoppingToken);
            if (Interlocked.Read(ref _generation) == generation)
            {
                await channel.BasicAckAsync(args.DeliveryTag, multiple: false, CancellationToken.None);
            }

            ConsumerLog.BrokerDeadLetterRecorded(logger, items.Count, items[0].Record.NotificationId, items[0].Record.StoredReason);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Left unacked: it goes back to the inbox with the channel.
        }
        catch (Exception ex) when (ex is AlreadyClosedException or OperationInterruptedException)
        {
            // The ack's channel is gone: the broker gives the message back, and its copy is recorded again as a no-op.
        }
    }

    // The items that are notifications (not events themselves), when an endpoint takes their dead_lettered events.
    private async Task<List<OutcomeEvent>> EventsAsync(IReadOnlyList<InboxItem> items, CancellationToken cancellationToken)
    {
        if (!await subscriptions.WantAsync(OutcomeEventTypes.DeadLettered, cancellationToken))
        {
            return [];
        }

        return [.. items
            .Select(i => (Item: i, Message: MessageSerializer.TryDeserialize(i.Body, out var message, out _) ? message : null))
            .Where(x => x.Message is { Id: > 0 } && !OutcomeEvents.IsEventNotification(x.Message.Channel, x.Message.Subject))
            .Select(x => new OutcomeEvent(x.Message!.Id, OutcomeEventTypes.DeadLettered, x.Message.ChannelName, x.Message.Recipient, x.Item.Record.StoredAt,
                OutcomeEventBody.Detail(("reason", x.Item.Record.StoredReason), ("attempt", x.Item.Record.Attempts.ToString(CultureInfo.InvariantCulture)))))];
    }
}
