using RabbitMQ.Client;

namespace Notifications.Harness;

/// <summary>The benchmark's own queues on the broker: emptied before a run, depth read during it.</summary>
internal sealed class BenchBroker(IConnection connection, string queue) : IAsyncDisposable
{
    private IChannel? _channel;

    public static async Task<BenchBroker> ConnectAsync(Uri uri, string queue)
    {
        var factory = new ConnectionFactory { Uri = uri, ClientProvidedName = "notifications-bench" };
        return new BenchBroker(await factory.CreateConnectionAsync(), queue);
    }

    public IConnection Connection => connection;

    /// <summary>Deletes the work queues of both lanes, their retry queues and the dead-letter queue; the workers declare them again.</summary>
    public async Task DeleteQueuesAsync()
    {
        await using var channel = await connection.CreateChannelAsync();
        string[] lanes = [queue, $"{queue}.urgent"];
        foreach (string name in lanes.SelectMany(lane => Enumerable.Range(1, 8).Select(n => $"{lane}.retry.{n}").Prepend(lane)).Append($"{queue}.dead"))
        {
            await channel.QueueDeleteAsync(name);
        }
    }

    /// <summary>Messages ready in the work queue (not counting those delivered and unacked), or -1.</summary>
    public async Task<long> DepthAsync()
    {
        try
        {
            _channel ??= await connection.CreateChannelAsync();
            return (await _channel.QueueDeclarePassiveAsync(queue)).MessageCount;
        }
        catch (RabbitMQ.Client.Exceptions.OperationInterruptedException)
        {
            // Not declared yet: the passive declare closed the channel.
            _channel = null;
            return -1;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_channel is not null)
        {
            await _channel.DisposeAsync();
        }

        await connection.DisposeAsync();
    }
}
