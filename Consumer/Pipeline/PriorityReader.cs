using System.Diagnostics.CodeAnalysis;
using System.Threading.Channels;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// Reads <paramref name="first"/> whenever it holds something, else <paramref name="then"/>: the standard lane's handlers
/// take a delivery let in by a rate-limit lane (its slot is due now) before the next of the work queue's prefetched
/// backlog, which can hold prefetch × envelope notifications. Completes when both have completed.
/// </summary>
internal sealed class PriorityReader<T>(ChannelReader<T> first, ChannelReader<T> then) : ChannelReader<T>
{
    public override bool TryRead([MaybeNullWhen(false)] out T item) => first.TryRead(out item) || then.TryRead(out item);

    public override async ValueTask<bool> WaitToReadAsync(CancellationToken cancellationToken = default)
    {
        while (!(first.Completion.IsCompleted && then.Completion.IsCompleted))
        {
            // As a channel's own reader: a cancelled wait ends even with items waiting (handlers stop taking at shutdown).
            cancellationToken.ThrowIfCancellationRequested();
            if (first.TryPeek(out _) || then.TryPeek(out _))
            {
                return true;
            }

            // Both empty: wait for either, then drop the other wait (a waiter left registered would pile up per idle turn).
            using var either = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var waits = new List<Task<bool>>(2);
            foreach (var reader in new[] { first, then }.Where(r => !r.Completion.IsCompleted))
            {
                waits.Add(reader.WaitToReadAsync(either.Token).AsTask());
            }

            await Task.WhenAny(waits);
            await either.CancelAsync();
        }

        return false;
    }
}
