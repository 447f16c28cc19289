using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.Admin;

/// <summary>
/// Reads and purges the dead-letter queue. Browsing takes messages without acking them and gives them back
/// (nack, requeue: a classic queue puts them back in their places). Moving some out is <see cref="Operations.DeadLetterMover"/>'s.
/// </summary>
internal sealed class DeadLetterQueue(IConnection connection, RabbitMqOptions rabbit)
{
    public string Name => rabbit.DeadLetterQueue;

    public async Task<uint> CountAsync(CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        return (await channel.QueueDeclarePassiveAsync(Name, cancellationToken)).MessageCount;
    }

    /// <summary>Up to <paramref name="limit"/> dead letters from the head of the queue, left in the queue.</summary>
    public async Task<IReadOnlyList<DeadLetter>> BrowseAsync(int limit, CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        var letters = new List<DeadLetter>();
        try
        {
            uint depth = (await channel.QueueDeclarePassiveAsync(Name, cancellationToken)).MessageCount;
            while (letters.Count < Math.Min(depth, (uint)limit)
                   && await channel.BasicGetAsync(Name, autoAck: false, cancellationToken) is { } message)
            {
                letters.Add(DeadLetter.From(letters.Count + 1, message));
            }
        }
        finally
        {
            if (letters.Count > 0 && channel.IsOpen)
            {
                await channel.BasicNackAsync(letters[^1].DeliveryTag, multiple: true, requeue: true, CancellationToken.None);
            }
        }

        return letters;
    }

    /// <summary>Deletes every dead letter; returns how many.</summary>
    public async Task<uint> PurgeAsync(CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        return await channel.QueuePurgeAsync(Name, cancellationToken);
    }
}
