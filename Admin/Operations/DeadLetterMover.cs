using System.Globalization;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.Admin.Operations;

/// <summary>
/// Takes the dead letters a predicate accepts out of the dead-letter queue: to the work queue (requeue, attempts reset)
/// or nowhere (purge). get → publish with confirms (a batch at a time) → ack: a failure at any step leaves the dead letter
/// where it was; a crash between a confirm and its ack leaves a copy in both queues, which the consumers' delivery log
/// recognises. The others are held unacked (and so keep their places) up to <see cref="DefaultHoldLimit"/>; past that, each is
/// republished to the queue's tail with a confirm, then acked — a 1,000,000-letter queue is never held by one channel,
/// at the price of those letters' positions (the queue is a parking lot; its order carries no meaning). While a letter is
/// taken, no other channel can take it: two moves at once never move one letter twice.
/// </summary>
internal sealed class DeadLetterMover(IConnection connection, RabbitMqOptions rabbit, int holdLimit = DeadLetterMover.DefaultHoldLimit)
{
    public const int DefaultHoldLimit = 10_000;
    public const int BatchSize = 200;
    public const int ProgressEvery = 1_000;
    private static readonly TimeSpan ConfirmTimeout = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Looks at no more than the queue held when it started, and stops once <paramref name="wanted"/> were moved; returns how many were.
    /// </summary>
    public async Task<int> MoveAsync(bool requeue, Func<DeadLetter, bool> match, int? wanted, DeadLetterMoveHooks hooks, CancellationToken cancellationToken)
    {
        await using var get = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        await using var publish = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true), cancellationToken);
        var batch = new List<DeadLetter>(BatchSize);
        var tail = new DeadLetterTail(this);
        int moved = 0, looked = 0, held = 0;
        ulong lastHeld = 0;
        try
        {
            uint depth = (await get.QueueDeclarePassiveAsync(rabbit.DeadLetterQueue, cancellationToken)).MessageCount;
            bool going = true;
            while (going && looked < depth && (wanted is null || moved + batch.Count < wanted)
                   && await get.BasicGetAsync(rabbit.DeadLetterQueue, autoAck: false, cancellationToken) is { } message)
            {
                var letter = DeadLetter.From(++looked, message);
                if (match(letter))
                {
                    batch.Add(letter);
                }
                else if (held < holdLimit)
                {
                    (held, lastHeld) = (held + 1, letter.DeliveryTag);
                }
                else if (tail.Add(letter) && tail.Count == BatchSize)
                {
                    await tail.FlushAsync(get, publish, cancellationToken);
                }

                if (batch.Count == BatchSize || (batch.Count == 0 && looked % ProgressEvery == 0))
                {
                    moved += batch.Count;
                    going = await FlushAsync(get, publish, requeue, batch, looked, hooks, cancellationToken);
                }
            }

            moved += batch.Count;
            await FlushAsync(get, publish, requeue, batch, looked, hooks, cancellationToken);
            await tail.FlushAsync(get, publish, cancellationToken);
        }
        finally
        {
            // Everything held goes back to its place: the unacked tags up to the last held one are exactly those and any of
            // a batch cut short (moved ones were acked). Closing the channel would requeue them too.
            if (lastHeld > 0 && get.IsOpen)
            {
                await get.BasicNackAsync(lastHeld, multiple: true, requeue: true, CancellationToken.None);
            }
        }

        return moved;
    }

    internal string DeadLetterQueue => rabbit.DeadLetterQueue;

    private async Task<bool> FlushAsync(
        IChannel get, IChannel publish, bool requeue, List<DeadLetter> batch, int looked, DeadLetterMoveHooks hooks, CancellationToken cancellationToken)
    {
        if (requeue && batch.Count > 0)
        {
            await hooks.BeforePublishAsync(batch);
            await Task.WhenAll(batch.Select(letter => PublishAsync(publish, rabbit.Queue, WorkQueueProperties(letter), letter, cancellationToken)));
        }

        foreach (var letter in batch)
        {
            await get.BasicAckAsync(letter.DeliveryTag, multiple: false, cancellationToken);
        }

        bool going = await hooks.MovedAsync(batch.ToList(), looked);
        batch.Clear();
        return going;
    }

    private static BasicProperties WorkQueueProperties(DeadLetter letter)
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
        return new BasicProperties
        {
            Persistent = true,
            ContentType = letter.Properties.ContentType,
            Type = letter.Properties.Type,
            MessageId = letter.Properties.MessageId ?? letter.NotificationId?.ToString(CultureInfo.InvariantCulture),
            Headers = headers,
        };
    }

    internal async Task PublishAsync(IChannel channel, string queue, BasicProperties properties, DeadLetter letter, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(ConfirmTimeout);
        // Confirm tracking: completes when the broker confirms; a nack or a return (no queue bound) throws.
        await channel.BasicPublishAsync(rabbit.Exchange, queue, mandatory: true, properties, letter.Body, timeout.Token);
    }
}
