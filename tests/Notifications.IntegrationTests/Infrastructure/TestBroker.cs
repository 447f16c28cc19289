using System.Text;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>A private exchange and queue set on the real broker for one test, deleted afterwards.</summary>
internal sealed class TestBroker : IAsyncDisposable
{
    private readonly IConnection _connection;
    private IChannel _channel;
    private readonly List<string> _alsoOwned = [];

    private TestBroker(IConnection connection, IChannel channel, RabbitMqOptions options)
    {
        _connection = connection;
        _channel = channel;
        Options = options;
    }

    public RabbitMqOptions Options { get; }

    /// <summary>
    /// Declares the topology (unless <paramref name="declare"/> is false: then the first consumer does). <paramref name="queueType"/>
    /// and <paramref name="endpoints"/> (a cluster's host:port list) go to the workers through <see cref="Configuration"/> as well.
    /// </summary>
    public static async Task<TestBroker> CreateAsync(
        Uri? uri = null, TimeSpan[]? retryDelays = null, RabbitQueueType queueType = RabbitQueueType.Classic, string? endpoints = null,
        bool declare = true, int deliveryLimit = 20)
    {
        string name = $"test.{Guid.NewGuid():N}"[..21];
        var options = new RabbitMqOptions
        {
            Uri = uri ?? TestServices.RabbitMqUri,
            Exchange = name,
            Queue = name,
            RetryDelays = retryDelays ?? [TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(400)],
            QueueType = queueType,
            Endpoints = endpoints,
            DeliveryLimit = deliveryLimit,
        };
        var connection = await new ConnectionFactory { Uri = options.Uri, AutomaticRecoveryEnabled = true }
            .CreateConnectionAsync(options.BrokerEndpoints());
        var channel = await connection.CreateChannelAsync();
        if (declare)
        {
            await RabbitTopology.DeclareAsync(channel, options, CancellationToken.None);
        }

        return new TestBroker(connection, channel, options);
    }

    /// <summary>Configuration that points a worker at this broker's topology.</summary>
    public Dictionary<string, string?> Configuration()
    {
        var config = new Dictionary<string, string?>
        {
            ["RabbitMq:Uri"] = Options.Uri.ToString(),
            ["RabbitMq:Exchange"] = Options.Exchange,
            ["RabbitMq:Queue"] = Options.Queue,
            ["RabbitMq:QueueType"] = Options.QueueType.ToString(),
            ["RabbitMq:DeliveryLimit"] = Options.DeliveryLimit.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };
        if (!string.IsNullOrEmpty(Options.Endpoints))
        {
            config["RabbitMq:Endpoints"] = Options.Endpoints;
        }

        for (int i = 0; i < Options.RetryDelays.Length; i++)
        {
            config[$"RabbitMq:RetryDelays:{i}"] = Options.RetryDelays[i].ToString();
        }

        return config;
    }

    /// <summary>Ready messages in a queue (unacked ones are not counted).</summary>
    public Task<uint> CountAsync(string queue) => RetryAsync(async () => (await _channel.QueueDeclarePassiveAsync(queue)).MessageCount);

    /// <summary>
    /// Ready messages in every queue of the topology that holds notifications: each work queue (standard, urgent),
    /// its retry queues, and the dead-letter queue; those that hold any, by name.
    /// </summary>
    public async Task<Dictionary<string, uint>> NonEmptyQueuesAsync()
    {
        var queues = Options.WorkQueues
            .SelectMany(work => Enumerable.Range(1, Options.RetryDelays.Length).Select(attempt => RabbitMqOptions.RetryQueue(work, attempt)).Prepend(work))
            .Append(Options.DeadLetterQueue);
        var counts = new Dictionary<string, uint>();
        foreach (string queue in queues)
        {
            counts[queue] = await CountAsync(queue);
        }

        return counts.Where(c => c.Value > 0).ToDictionary();
    }

    /// <summary>Consumers subscribed to a queue right now.</summary>
    public Task<uint> ConsumersAsync(string queue) => RetryAsync(async () => (await _channel.QueueDeclarePassiveAsync(queue)).ConsumerCount);

    /// <summary>Takes every message from the dead-letter queue (or <paramref name="queue"/>): its reason header and body.</summary>
    public async Task<List<(string Reason, string Body, IDictionary<string, object?> Headers)>> DrainDeadLettersAsync(string? queue = null) =>
        (await DrainDeadLetterBytesAsync(queue)).Select(d => (d.Reason, Encoding.UTF8.GetString(d.Body), d.Headers)).ToList();

    /// <summary>Takes every message from the dead-letter queue (or <paramref name="queue"/>) with its exact bytes.</summary>
    public async Task<List<(string Reason, byte[] Body, IDictionary<string, object?> Headers)>> DrainDeadLetterBytesAsync(string? queue = null)
    {
        var result = new List<(string, byte[], IDictionary<string, object?>)>();
        while (await RetryAsync(() => _channel.BasicGetAsync(queue ?? Options.DeadLetterQueue, autoAck: true)) is { } message)
        {
            var headers = message.BasicProperties.Headers ?? new Dictionary<string, object?>();
            string reason = headers.TryGetValue("x-dead-reason", out var r) && r is byte[] bytes ? Encoding.UTF8.GetString(bytes) : "";
            result.Add((reason, message.Body.ToArray(), headers));
        }

        return result;
    }

    /// <summary>Publishes a message to <paramref name="queue"/> (routing key = queue name) with <paramref name="properties"/>.</summary>
    public async Task PublishAsync(string queue, BasicProperties properties, byte[] body) =>
        await _channel.BasicPublishAsync(Options.Exchange, queue, mandatory: true, properties, body);

    /// <summary>Publishes raw bytes to the work queue, as any client could.</summary>
    public async Task PublishRawAsync(byte[] body, string? contentType, string? type = null)
    {
        var properties = new BasicProperties { Persistent = true, ContentType = contentType, Type = type };
        await _channel.BasicPublishAsync(Options.Exchange, Options.Queue, mandatory: true, properties, body);
    }

    /// <summary>
    /// Publishes one "order shipped" email a notification id to the work queue (to <c>user{id}@example.com</c>), each a
    /// message of its own, as a producer without envelopes would.
    /// </summary>
    public async Task PublishShippedAsync(IEnumerable<long> ids)
    {
        foreach (long id in ids)
        {
            await PublishRawAsync(MessageSerializer.Serialize(Shipped(id)), MessageSerializer.ContentType);
        }
    }

    private static NotificationMessage Shipped(long id) => new(
        id, $"user{id}@example.com", $"Order #{id}", "Your order has shipped.", false, DateTimeOffset.UtcNow, null);

    // The fault suite drops connections in this broker's vhost, this one's included: wait for its recovery.
    // A channel the broker closed (e.g. a quorum queue without a leader for a moment) is not recovered by
    // the client: open a new one.
    private async Task<T> RetryAsync<T>(Func<Task<T>> operation)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return await operation();
            }
            catch (Exception ex) when (ex is AlreadyClosedException or OperationInterruptedException && attempt < 60)
            {
                await Task.Delay(500);
                if (_channel.IsClosed && _connection.IsOpen)
                {
                    try
                    {
                        _channel = await _connection.CreateChannelAsync();
                    }
                    catch (Exception reopen) when (reopen is AlreadyClosedException or OperationInterruptedException)
                    {
                        // Try again on the next round.
                    }
                }
            }
        }
    }

    /// <summary>Declares a durable queue with no arguments and no binding (e.g. one outside the topology's names).</summary>
    public Task DeclareQueueAsync(string queue) => _channel.QueueDeclareAsync(queue, durable: true, exclusive: false, autoDelete: false);

    /// <summary>A queue the workers declare on this topology (e.g. a rate-limit lane): deleted with the rest.</summary>
    public void Owns(string queue) => _alsoOwned.Add(queue);

    /// <summary>Removes the work queue's binding: publishes to it come back as mandatory returns.</summary>
    public Task UnbindWorkQueueAsync() => _channel.QueueUnbindAsync(Options.Queue, Options.Exchange, Options.Queue);

    public async ValueTask DisposeAsync()
    {
        foreach (string queue in AllQueues())
        {
            await _channel.QueueDeleteAsync(queue);
        }

        await _channel.ExchangeDeleteAsync(Options.Exchange);
        await _channel.ExchangeDeleteAsync(Options.LiveExchange);
        await _channel.DisposeAsync();
        await _connection.DisposeAsync();
    }

    private IEnumerable<string> AllQueues() =>
        Options.WorkQueues
            .SelectMany(work => Enumerable.Range(1, Options.RetryDelays.Length).Select(n => RabbitMqOptions.RetryQueue(work, n)).Prepend(work))
            .Append(Options.DeadLetterQueue)
            .Append(Options.DeadLetterInbox)
            .Concat(_alsoOwned);
}
