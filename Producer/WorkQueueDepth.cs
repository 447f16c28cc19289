using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.Producer;

/// <summary>
/// About how many notifications wait in the work queue (its ready messages × <see cref="ProducerOptions.EnvelopeSize"/>), for
/// <see cref="ProducerOptions.MaxQueued"/>: one reading a process, shared by the standard lane and the fan-out stage's workers.
/// The broker is asked again when the reading is older than <see cref="MaxAge"/>, or when it and what this process published
/// since would reach the bound; otherwise a claim goes on without a broker round trip (the queue can only have shrunk since,
/// but for what this process added, which is counted).
/// </summary>
internal sealed class WorkQueueDepth(IOptions<ProducerOptions> options, IOptions<RabbitMqOptions> rabbitOptions, TimeProvider time)
{
    /// <summary>How long a reading stands (other producers publish too: the bound is "about", this is how far).</summary>
    public static readonly TimeSpan MaxAge = TimeSpan.FromMilliseconds(50);

    private readonly ProducerOptions _options = options.Value;
    private readonly string _queue = rabbitOptions.Value.Queue;
    private long _queued;
    private long _publishedSince;
    private long _readAt = long.MinValue;

    /// <summary>Whether the work queue has room for more (always, with no bound); reads its depth on <paramref name="channel"/> if need be.</summary>
    public async ValueTask<bool> HasRoomAsync(IChannel channel, CancellationToken cancellationToken)
    {
        if (_options.MaxQueued == 0)
        {
            return true;
        }

        long readAt = Interlocked.Read(ref _readAt);
        if (readAt == long.MinValue || time.GetElapsedTime(readAt) > MaxAge || Estimate() >= _options.MaxQueued)
        {
            // Reset before the round trip: what is published meanwhile counts on top of the reading (perhaps twice), never not at all.
            Interlocked.Exchange(ref _publishedSince, 0);
            long messages = await channel.MessageCountAsync(_queue, cancellationToken);
            Interlocked.Exchange(ref _queued, messages * _options.EnvelopeSize);
            Interlocked.Exchange(ref _readAt, time.GetTimestamp());
        }

        return Estimate() < _options.MaxQueued;
    }

    /// <summary>Counts <paramref name="notifications"/> this process has just published to the work queue.</summary>
    public void Published(long notifications) => Interlocked.Add(ref _publishedSince, notifications);

    private long Estimate() => Interlocked.Read(ref _queued) + Interlocked.Read(ref _publishedSince);
}
