using System.Globalization;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.Admin;

/// <summary>
/// Reads and moves dead letters. Browsing takes messages without acking them and gives them back
/// (nack, requeue: a classic queue puts them back in their places). Requeueing is get → publish to the
/// work queue with a confirm → ack, one message at a time: a failure at any step leaves the dead letter
/// where it was; a crash between the confirm and the ack leaves a copy in both queues, which the
/// consumers' delivery log recognises.
/// </summary>
internal sealed class DeadLetterQueue(IConnection connection, RabbitMqOptions rabbit)
{
    private static readonly TimeSpan ConfirmTimeout = TimeSpan.FromSeconds(30);

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

    /// <summary>
    /// Moves the dead letters that <paramref name="match"/> accepts (looking at no more than the queue held
    /// when it started) to the work queue, with their retry count reset; returns the notification ids moved.
    /// <paramref name="beforePublish"/> runs first for each one (releasing an at-most-once mark).
    /// </summary>
    public async Task<IReadOnlyList<DeadLetter>> RequeueAsync(
        Func<DeadLetter, bool> match, Func<DeadLetter, Task> beforePublish, CancellationToken cancellationToken)
    {
        await using var get = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        await using var publish = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true), cancellationToken);
        var moved = new List<DeadLetter>();
        ulong lastKept = 0;
        try
        {
            uint depth = (await get.QueueDeclarePassiveAsync(Name, cancellationToken)).MessageCount;
            for (int position = 1; position <= depth; position++)
            {
                if (await get.BasicGetAsync(Name, autoAck: false, cancellationToken) is not { } message)
                {
                    break;
                }

                var letter = DeadLetter.From(position, message);
                if (!match(letter))
                {
                    lastKept = letter.DeliveryTag;
                    continue;
                }

                await beforePublish(letter);
                await PublishToWorkQueueAsync(publish, letter, cancellationToken);
                await get.BasicAckAsync(letter.DeliveryTag, multiple: false, cancellationToken);
                moved.Add(letter);
            }
        }
        finally
        {
            // Everything taken but not moved goes back: all unacked tags up to the last kept one are exactly
            // those (the moved ones were acked). Closing the channel would requeue them too.
            if (lastKept > 0 && get.IsOpen)
            {
                await get.BasicNackAsync(lastKept, multiple: true, requeue: true, CancellationToken.None);
            }
        }

        return moved;
    }

    /// <summary>Deletes every dead letter; returns how many.</summary>
    public async Task<uint> PurgeAsync(CancellationToken cancellationToken)
    {
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        return await channel.QueuePurgeAsync(Name, cancellationToken);
    }

    private async Task PublishToWorkQueueAsync(IChannel channel, DeadLetter letter, CancellationToken cancellationToken)
    {
        var headers = letter.Properties.Headers is { } original
            ? new Dictionary<string, object?>(original)
            : new Dictionary<string, object?>();
        // A fresh start: the consumer counts attempts from x-attempt (absent = 1).
        foreach (string name in (string[])[DeadLetter.ReasonHeader, DeadLetter.AttemptsHeader, DeadLetter.DeadAtHeader, DeadLetter.KeyHeader, DeadLetter.AttemptHeader])
        {
            headers.Remove(name);
        }

        headers["x-requeued-at"] = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = letter.Properties.ContentType,
            Type = letter.Properties.Type,
            MessageId = letter.Properties.MessageId ?? letter.NotificationId?.ToString(CultureInfo.InvariantCulture),
            Headers = headers,
        };
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(ConfirmTimeout);
        // Confirm tracking: completes when the broker confirms; a nack or a return (no queue bound) throws.
        await channel.BasicPublishAsync(rabbit.Exchange, rabbit.Queue, mandatory: true, properties, letter.Body, timeout.Token);
    }
}
