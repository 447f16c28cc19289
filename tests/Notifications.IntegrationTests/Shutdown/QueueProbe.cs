using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>Looks at a test queue from its own connection: depth, consumers, and the ids it holds.</summary>
internal sealed class QueueProbe : IAsyncDisposable
{
    private readonly IConnection _connection;
    private readonly IChannel _channel;
    private readonly string _queue;

    private QueueProbe(IConnection connection, IChannel channel, string queue)
    {
        _connection = connection;
        _channel = channel;
        _queue = queue;
    }

    public static async Task<QueueProbe> OpenAsync(TestBroker broker)
    {
        var connection = await new ConnectionFactory { Uri = broker.Options.Uri }.CreateConnectionAsync();
        return new QueueProbe(connection, await connection.CreateChannelAsync(), broker.Options.Queue);
    }

    /// <summary>Messages ready in the queue (unacknowledged ones are not counted).</summary>
    public async Task<uint> ReadyAsync() => (await _channel.QueueDeclarePassiveAsync(_queue)).MessageCount;

    public async Task<uint> ConsumersAsync() => (await _channel.QueueDeclarePassiveAsync(_queue)).ConsumerCount;

    /// <summary>Takes all <paramref name="count"/> messages out of the queue and returns their message ids.</summary>
    public async Task<IReadOnlyList<long>> TakeIdsAsync(int count, TimeSpan timeout)
    {
        var ids = new List<long>(count);
        var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(_channel);
        consumer.ReceivedAsync += (_, args) =>
        {
            ids.Add(long.Parse(args.BasicProperties.MessageId!, CultureInfo.InvariantCulture));
            if (ids.Count == count)
            {
                all.TrySetResult();
            }

            return Task.CompletedTask;
        };
        if (count == 0)
        {
            return ids;
        }

        string tag = await _channel.BasicConsumeAsync(_queue, autoAck: true, consumer);
        await all.Task.WaitAsync(timeout);
        await _channel.BasicCancelAsync(tag);
        return ids;
    }

    public async ValueTask DisposeAsync()
    {
        await _channel.DisposeAsync();
        await _connection.DisposeAsync();
    }
}
