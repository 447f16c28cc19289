using System.Globalization;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Gateway;

/// <summary>
/// This node's end of the routing between gateway nodes (docs/live.md), on RabbitMQ: one queue of its own
/// (<c>{Queue}.live.node.&lt;random&gt;</c>, exclusive, gone with the node's broker connection, so a node that dies loses its
/// presence within a heartbeat or two), bound to the live exchange under each subscriber connected here
/// (<see cref="Presence"/>), consumed with automatic acks: a frame is only the fast path, the pending row is what lasts.
/// No cluster protocol of our own.
/// </summary>
internal sealed partial class LiveRouter(
    IOptions<RabbitMqOptions> options, IServiceProvider services, ILogger<LiveRouter> logger) : IHostedService, IAsyncDisposable
{
    private readonly RabbitMqOptions _rabbit = options.Value;
    private readonly SemaphoreSlim _bindings = new(1, 1);
    private IConnection? _connection;
    private IChannel? _channel;
    private long _binds;
    private long _unbinds;

    /// <summary>This node's queue.</summary>
    public string Queue { get; } = options.Value.LiveNodeQueuePrefix + Guid.NewGuid().ToString("N")[..12];

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var presence = services.GetRequiredService<Presence>();
        _connection = await RabbitConnector.ConnectAsync(_rabbit, "notifications-gateway", logger, cancellationToken);
        _channel = await _connection.CreateChannelAsync(cancellationToken: cancellationToken);
        await RabbitTopology.DeclareLiveExchangeAsync(_channel, _rabbit, cancellationToken);
        // Classic whatever the vhost's default: an exclusive queue cannot be a quorum queue.
        await _channel.QueueDeclareAsync(Queue, durable: false, exclusive: true, autoDelete: true,
            new Dictionary<string, object?> { ["x-queue-type"] = "classic" }, cancellationToken: cancellationToken);
        // Every node takes every broadcast to a topic (docs/live.md#broadcasts-to-a-topic).
        await _channel.QueueBindAsync(Queue, _rabbit.LiveExchange, LiveFrames.BroadcastRoutingKey, cancellationToken: cancellationToken);
        var broadcasts = services.GetRequiredService<LiveBroadcastDelivery>();
        var consumer = new AsyncEventingBasicConsumer(_channel);
        consumer.ReceivedAsync += (_, message) =>
        {
            if (long.TryParse(message.BasicProperties.MessageId, NumberStyles.None, CultureInfo.InvariantCulture, out long id))
            {
                bool atMostOnce = message.BasicProperties.Headers?.TryGetValue(LiveFrames.AtMostOnceHeader, out var value) == true && value is true;
                byte[] frame = message.Body.ToArray();
                if (message.RoutingKey == LiveFrames.BroadcastRoutingKey)
                {
                    broadcasts.Start(id, frame, atMostOnce);
                }
                else
                {
                    presence.Deliver(message.RoutingKey, new LiveFrame(id, frame, atMostOnce));
                }
            }

            return Task.CompletedTask;
        };
        await _channel.BasicConsumeAsync(Queue, autoAck: true, consumer, cancellationToken);
        // The queue and its bindings come back with the connection (the client's topology recovery); what was routed while
        // it was away did not reach this node: each connection here reads its pending rows again.
        _connection.RecoverySucceededAsync += (_, _) =>
        {
            foreach (var connection in presence.All())
            {
                connection.RequestReplay();
            }

            return Task.CompletedTask;
        };
        // Ready from here (the operations endpoint's broker check follows this connection, which the client recovers).
        services.GetRequiredService<WorkerHealth>().BrokerConnected(_connection);
        LogStarted(logger, Queue, _rabbit.LiveExchange);
    }

    /// <summary>Bindings made and removed since the node started: each is a broker round trip on the node's one channel.</summary>
    public (long Binds, long Unbinds) BindingChanges => (Interlocked.Read(ref _binds), Interlocked.Read(ref _unbinds));

    /// <summary>Routes <paramref name="subscriber"/>'s live notifications to this node.</summary>
    public async Task BindAsync(string subscriber, CancellationToken cancellationToken)
    {
        await WithChannelAsync(c => c.QueueBindAsync(Queue, _rabbit.LiveExchange, subscriber, cancellationToken: cancellationToken), cancellationToken);
        Interlocked.Increment(ref _binds);
    }

    /// <summary>Routes <paramref name="subscriber"/>'s live notifications here no more.</summary>
    public async Task UnbindAsync(string subscriber)
    {
        await WithChannelAsync(c => c.QueueUnbindAsync(Queue, _rabbit.LiveExchange, subscriber), CancellationToken.None);
        Interlocked.Increment(ref _unbinds);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public async ValueTask DisposeAsync()
    {
        if (_channel is not null)
        {
            await _channel.DisposeAsync();
        }

        if (_connection is not null)
        {
            await _connection.DisposeAsync();
        }

        _bindings.Dispose();
    }

    // One binding change at a time on the node's channel.
    private async Task WithChannelAsync(Func<IChannel, Task> change, CancellationToken cancellationToken)
    {
        var channel = _channel ?? throw new InvalidOperationException("the gateway is not connected to the broker yet");
        await _bindings.WaitAsync(cancellationToken);
        try
        {
            await change(channel);
        }
        finally
        {
            _bindings.Release();
        }
    }

    [LoggerMessage(EventId = 7520, Level = LogLevel.Information, Message = "Gateway node queue {Queue} consuming, bound to {Exchange} per connected subscriber")]
    private static partial void LogStarted(ILogger logger, string queue, string exchange);
}
