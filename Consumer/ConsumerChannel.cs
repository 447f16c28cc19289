using System.Threading.Channels;
using Notifications.Shared.Hosting;
using Microsoft.Extensions.Logging;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Consumer;

/// <summary>One AMQP channel consuming the work queue with a prefetch window, feeding the handlers.</summary>
internal sealed class ConsumerChannel : IAsyncDisposable
{
    private readonly IChannel _channel;
    private readonly ChannelWriter<Delivery> _work;
    private string? _consumerTag;

    private ConsumerChannel(IChannel channel, ChannelWriter<Delivery> work, ILogger logger)
    {
        _channel = channel;
        _work = work;
        Acks = new AckBatcher(channel, ex => ConsumerLog.AckFailed(logger, ex));
    }

    public AckBatcher Acks { get; }

    public bool IsOpen => _channel.IsOpen;

    public static async Task<ConsumerChannel> OpenAsync(
        IConnection connection, RabbitMqOptions rabbit, ConsumerOptions options, ChannelWriter<Delivery> work, ILogger logger,
        CancellationToken cancellationToken)
    {
        var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        var consumerChannel = new ConsumerChannel(channel, work, logger);
        await channel.BasicQosAsync(0, (ushort)options.Prefetch, global: false, cancellationToken);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += consumerChannel.OnReceivedAsync;
        consumerChannel._consumerTag = await channel.BasicConsumeAsync(rabbit.Queue, autoAck: false, consumer, cancellationToken);
        return consumerChannel;
    }

    /// <summary>Stops new deliveries; those already received stay to be finished and acked.</summary>
    public async Task CancelAsync(CancellationToken cancellationToken)
    {
        if (_consumerTag is not null && _channel.IsOpen)
        {
            await _channel.BasicCancelAsync(_consumerTag, cancellationToken: cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await Acks.DisposeAsync();
        await _channel.DisposeAsync();
    }

    private async Task OnReceivedAsync(object sender, BasicDeliverEventArgs args)
    {
        // The body's memory belongs to the client only until this callback returns: copy it.
        var headers = args.BasicProperties.Headers;
        var delivery = new Delivery(
            this,
            args.DeliveryTag,
            Acks.Track(args.DeliveryTag),
            args.Body.ToArray(),
            args.BasicProperties.ContentType,
            args.BasicProperties.Type,
            Headers.ReadInt(headers, Headers.Attempt, 1),
            args.Redelivered,
            headers is null ? null : new Dictionary<string, object?>(headers),
            ConsumerTracing.Capture(args.BasicProperties));
        await _work.WriteAsync(delivery, args.CancellationToken);
    }
}
