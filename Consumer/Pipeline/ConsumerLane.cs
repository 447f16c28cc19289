using System.Threading.Channels;
using Notifications.Shared.Observability.Hops;

namespace Notifications.Consumer.Pipeline;

/// <summary>What one lane's channels consume and where they hand deliveries: its queue, prefetch window and handlers' work.</summary>
/// <param name="Queue">The lane's work queue.</param>
/// <param name="Prefetch">The prefetch window of each of its channels.</param>
/// <param name="Work">Read by the lane's own handlers only.</param>
/// <param name="RetryQueueOf">The work queue whose retry queues a failed delivery of this lane takes (default: <paramref name="Queue"/>);
/// a rate-limit lane has none of its own and retries through the standard work queue's.</param>
internal sealed record ConsumerLane(string Queue, int Prefetch, Channel<Delivery> Work, string? RetryQueueOf = null)
{
    /// <summary>The work queue whose <c>.retry.N</c> queues this lane's retries go through.</summary>
    public string RetriesVia => RetryQueueOf ?? Queue;

    /// <summary>The <c>lane</c> tag of its deliveries' hop histograms (<c>standard</c> unless set).</summary>
    public KeyValuePair<string, object?> Tag { get; init; } = HopTags.Standard;

    /// <summary>The urgent lane (tagged <c>urgent</c>): its messages go first, the relay breaker's probe included.</summary>
    public bool Urgent => Tag.Equals(HopTags.Urgent);

    public ConsumerLane(string queue, int prefetch)
        : this(queue, prefetch, Channel.CreateUnbounded<Delivery>(new UnboundedChannelOptions { SingleWriter = false, SingleReader = false }))
    {
    }
}
