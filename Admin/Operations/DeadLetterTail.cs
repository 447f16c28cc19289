using RabbitMQ.Client;

namespace Notifications.Admin.Operations;

/// <summary>
/// The letters a move looks at, does not take, and cannot hold (past <see cref="DeadLetterMover.DefaultHoldLimit"/>): republished
/// to the dead-letter queue's tail as they are (every property and header, the key included), a batch at a time with
/// confirms, then acked. A crash between the confirms and the acks leaves a letter twice in the queue, never none.
/// </summary>
internal sealed class DeadLetterTail(DeadLetterMover mover)
{
    private readonly List<DeadLetter> _letters = new(DeadLetterMover.BatchSize);

    public int Count => _letters.Count;

    /// <summary>Adds <paramref name="letter"/>; true (so a caller can flush when full).</summary>
    public bool Add(DeadLetter letter)
    {
        _letters.Add(letter);
        return true;
    }

    public async Task FlushAsync(IChannel get, IChannel publish, CancellationToken cancellationToken)
    {
        await Task.WhenAll(_letters.Select(l => mover.PublishAsync(publish, mover.DeadLetterQueue, new BasicProperties(l.Properties), l, cancellationToken)));
        foreach (var letter in _letters)
        {
            await get.BasicAckAsync(letter.DeliveryTag, multiple: false, cancellationToken);
        }

        _letters.Clear();
    }
}
