using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// One AMQP channel consuming a lane's work queue with a prefetch window, feeding the handlers. Consumption is
/// switched on and off (<see cref="ConsumeAsync"/>, <see cref="CancelAsync"/>) by the consumer's supervisor;
/// while it is off, <see cref="TakeOneAsync"/> fetches single messages (the relay breaker's probes).
/// </summary>
internal sealed class ConsumerChannel : IAsyncDisposable
{
    private readonly IChannel _channel;
    private readonly string _queue;
    private readonly ChannelWriter<Delivery> _work;
    private readonly EnvelopeReturn _envelopeReturn;
    private readonly ConsumerMetrics? _metrics;
    private string? _consumerTag;

    private ConsumerChannel(
        IChannel channel, ConsumerLane lane, OutboundPublisher outbound, InfrastructureBreaker infrastructure, CancellationToken stopping, ILogger logger,
        ConsumerMetrics? metrics)
    {
        _metrics = metrics;
        _channel = channel;
        Lane = lane;
        _queue = lane.Queue;
        _work = lane.Work.Writer;
        Acks = new AckBatcher(channel, ex => ConsumerLog.AckFailed(logger, ex));
        _envelopeReturn = new EnvelopeReturn(outbound, Acks, infrastructure, stopping, logger);
    }

    /// <summary>The lane it consumes: its queue is where a returned delivery goes back and whose retry queues a retry takes.</summary>
    public ConsumerLane Lane { get; }

    public AckBatcher Acks { get; }

    public bool IsOpen => _channel.IsOpen;

    /// <summary>
    /// Opens the channel and sets its prefetch window; it does not consume until <see cref="ConsumeAsync"/>. An envelope's
    /// unsettled items go back to the work queue through <paramref name="outbound"/> (see <see cref="EnvelopeSettlement"/>),
    /// tried until the broker takes them (<paramref name="infrastructure"/>), the channel closes or <paramref name="stopping"/>
    /// fires (<see cref="EnvelopeReturn"/>). With <paramref name="metrics"/>, each message's queue wait is recorded (not for a
    /// rate-limit lane's, forwarded messages).
    /// </summary>
    public static async Task<ConsumerChannel> OpenAsync(
        IConnection connection, ConsumerLane lane, OutboundPublisher outbound, InfrastructureBreaker infrastructure, CancellationToken stopping,
        ILogger logger, ConsumerMetrics? metrics, CancellationToken cancellationToken)
    {
        var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        var consumerChannel = new ConsumerChannel(channel, lane, outbound, infrastructure, stopping, logger, metrics);
        await channel.BasicQosAsync(0, (ushort)lane.Prefetch, global: false, cancellationToken);
        return consumerChannel;
    }

    /// <summary>Starts consuming; nothing happens if it already does or the channel is closed.</summary>
    public async Task ConsumeAsync(CancellationToken cancellationToken)
    {
        if (_consumerTag is not null || !_channel.IsOpen)
        {
            return;
        }

        var consumer = new AsyncEventingBasicConsumer(_channel);
        consumer.ReceivedAsync += OnReceivedAsync;
        _consumerTag = await _channel.BasicConsumeAsync(_queue, autoAck: false, consumer, cancellationToken);
    }

    /// <summary>Stops new deliveries; those already received stay to be finished and acked.</summary>
    public async Task CancelAsync(CancellationToken cancellationToken)
    {
        // On a closed channel the tag stays: connection recovery brings the consumer back, and it is cancelled then.
        if (_consumerTag is { } tag && _channel.IsOpen)
        {
            await _channel.BasicCancelAsync(tag, cancellationToken: cancellationToken);
            _consumerTag = null;
        }
    }

    /// <summary>Takes one message with basic.get and hands it to the handlers; false when the queue is empty.</summary>
    public async Task<bool> TakeOneAsync(CancellationToken cancellationToken)
    {
        if (!_channel.IsOpen || await _channel.BasicGetAsync(_queue, autoAck: false, cancellationToken) is not { } message)
        {
            return false;
        }

        await HandOverAsync(Receive(message.DeliveryTag, message.BasicProperties, message.Body, message.Redelivered), cancellationToken);
        return true;
    }

    public async ValueTask DisposeAsync()
    {
        await Acks.DisposeAsync();
        await _channel.DisposeAsync();
    }

    private Task OnReceivedAsync(object sender, BasicDeliverEventArgs args) =>
        HandOverAsync(Receive(args.DeliveryTag, args.BasicProperties, args.Body, args.Redelivered), args.CancellationToken);

    private async Task HandOverAsync(IEnumerable<Delivery> deliveries, CancellationToken cancellationToken)
    {
        foreach (var delivery in deliveries)
        {
            await _work.WriteAsync(delivery, cancellationToken);
        }
    }

    // A single-notification message is one delivery; an envelope is one per item, settled together.
    private IEnumerable<Delivery> Receive(ulong deliveryTag, IReadOnlyBasicProperties properties, ReadOnlyMemory<byte> body, bool redelivered)
    {
        long generation = Acks.Track(deliveryTag);
        var headers = properties.Headers;
        int attempt = Headers.ReadInt(headers, Headers.Attempt, 1);
        _metrics?.Received(headers, attempt, Lane.Tag);
        var claimedAt = PublishedAtHeader.Read(headers, PublishedAtHeader.ClaimedName);
        var publishedAt = PublishedAtHeader.Read(headers, PublishedAtHeader.Name);

        // The message as it came (the body's memory belongs to the client only until the callback returns: copy it).
        Delivery Whole(System.Diagnostics.ActivityContext context) => new(this, deliveryTag, generation, body.ToArray(), properties.ContentType,
            properties.Type, attempt, redelivered, headers is null ? null : new Dictionary<string, object?>(headers), context)
        {
            MessageId = properties.MessageId,
            ClaimedAt = claimedAt,
            PublishedAt = publishedAt,
        };

        if (properties.Type != EnvelopeSerializer.EnvelopeType)
        {
            return [Whole(ConsumerTracing.Capture(properties))];
        }

        // A wrong content type is left to the handler's check, which dead-letters it whole with its reason.
        if (!string.Equals(properties.ContentType, MessageSerializer.ContentType, StringComparison.OrdinalIgnoreCase))
        {
            return [Whole(default)];
        }

        if (!EnvelopeSerializer.TryUnpack(body, out var items, out string? error))
        {
            // Not readable as an envelope: dead-lettered whole, as it came.
            return [Whole(default) with { Invalid = error }];
        }

        var deliveries = new Delivery[items.Count];
        var envelopeHeaders = headers is null ? null : new Dictionary<string, object?>(headers);
        var envelope = new EnvelopeSettlement(items.Count, outcome => SettleEnvelopeAsync(deliveryTag, generation, outcome, deliveries, envelopeHeaders));
        var traceParents = ConsumerTracing.ItemTraceParents(headers);
        for (int i = 0; i < items.Count; i++)
        {
            var item = items[i];
            var (itemHeaders, context) = ConsumerTracing.ItemContext(traceParents, item.Message?.Id);
            deliveries[i] = new Delivery(this, deliveryTag, generation, item.Body, MessageSerializer.ContentType, MessageSerializer.MessageType,
                attempt, redelivered, itemHeaders, context)
            {
                MessageId = properties.MessageId,
                Message = item.Message,
                Invalid = item.Error,
                Envelope = envelope,
                EnvelopeIndex = i,
                ClaimedAt = claimedAt,
                PublishedAt = publishedAt,
            };
        }

        return deliveries;
    }

    private async Task SettleEnvelopeAsync(
        ulong deliveryTag, long generation, EnvelopeOutcome outcome, Delivery[] items, IDictionary<string, object?>? headers)
    {
        if (!outcome.MovesItems)
        {
            await (outcome.Requeue ? Acks.RequeueAsync(deliveryTag, generation) : Acks.AckAsync(deliveryTag, generation));
            return;
        }

        // Some items are settled or parked: the unsettled ones go back without them, as one message at the tail, the parked ones
        // to a delay queue as another, and then the envelope is acked.
        var back = outcome.Back.Select(i => items[i]).ToList();
        var parked = outcome.Parked.Select(i => items[i]).ToList();
        if (await _envelopeReturn.TryAsync(deliveryTag, generation, back, (parked, outcome.ParkFor), headers))
        {
            return;
        }

        // The channel closed, or the shutdown ran out of time: as after a crash, the envelope comes back whole and the delivery
        // log sorts out its items (a closed channel's deliveries go back on their own).
        await Acks.RequeueAsync(deliveryTag, generation);
    }
}
