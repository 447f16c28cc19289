using System.Collections.Concurrent;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// The notifications this process is sending now, by id. Two copies of one notification (a producer's republish after a
/// crash, a redelivered envelope) may reach two handlers at once; at least once, both would pass the delivery log's check
/// before either logs its send. The second copy waits here until the first is finished, then finds it logged.
/// </summary>
internal sealed class InFlightNotifications
{
    private readonly ConcurrentDictionary<long, TaskCompletionSource> _sending = new();

    /// <summary>Enters <paramref name="notificationId"/>, after any other handler holding it has left; dispose the result to leave.</summary>
    public async ValueTask<Entry> EnterAsync(long notificationId, CancellationToken cancellationToken)
    {
        var mine = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        while (true)
        {
            var holder = _sending.GetOrAdd(notificationId, mine);
            if (ReferenceEquals(holder, mine))
            {
                return new Entry(this, notificationId, mine);
            }

            await holder.Task.WaitAsync(cancellationToken);
        }
    }

    /// <summary>Held while one handler handles the notification.</summary>
    internal readonly struct Entry(InFlightNotifications owner, long notificationId, TaskCompletionSource held) : IDisposable
    {
        public void Dispose()
        {
            owner._sending.TryRemove(new KeyValuePair<long, TaskCompletionSource>(notificationId, held));
            held.TrySetResult();
        }
    }
}
