using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
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

    /// <summary>Takes all <paramref name="count"/> messages out of the queue and returns the notification ids they carry.</summary>
    public Task<IReadOnlyList<long>> TakeIdsAsync(int count, TimeSpan timeout) => ReadIdsAsync(_channel, count, timeout, autoAck: true);

    /// <summary>
    /// Reads all <paramref name="count"/> messages without taking them: received unacknowledged on a channel of its own,
    /// which is then closed, so the broker puts them back. Returns the notification ids they carry.
    /// </summary>
    public async Task<IReadOnlyList<long>> PeekIdsAsync(int count, TimeSpan timeout)
    {
        await using var channel = await _connection.CreateChannelAsync();
        return await ReadIdsAsync(channel, count, timeout, autoAck: false);
    }

    private async Task<IReadOnlyList<long>> ReadIdsAsync(IChannel channel, int count, TimeSpan timeout, bool autoAck)
    {
        var ids = new List<long>(count);
        int messages = 0;
        var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, args) =>
        {
            ids.AddRange(IdsOf(args.BasicProperties, args.Body));
            if (++messages == count)
            {
                all.TrySetResult();
            }

            return Task.CompletedTask;
        };
        if (count == 0)
        {
            return ids;
        }

        string tag = await channel.BasicConsumeAsync(_queue, autoAck, consumer);
        await all.Task.WaitAsync(timeout);
        await channel.BasicCancelAsync(tag);
        return ids;
    }

    // A single-notification message names its id; an envelope carries several.
    private static IEnumerable<long> IdsOf(IReadOnlyBasicProperties properties, ReadOnlyMemory<byte> body)
    {
        if (properties.Type != EnvelopeSerializer.EnvelopeType)
        {
            return [long.Parse(properties.MessageId!, CultureInfo.InvariantCulture)];
        }

        Assert.True(EnvelopeSerializer.TryUnpack(body, out var items, out string? error), error);
        return items.Select(i => i.Message!.Id).ToList();
    }

    public async ValueTask DisposeAsync()
    {
        await _channel.DisposeAsync();
        await _connection.DisposeAsync();
    }
}
