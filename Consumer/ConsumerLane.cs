using System.Threading.Channels;

namespace Notifications.Consumer;

/// <summary>What one lane's channels consume and where they hand deliveries: its queue, prefetch window and handlers' work.</summary>
/// <param name="Queue">The lane's work queue.</param>
/// <param name="Prefetch">The prefetch window of each of its channels.</param>
/// <param name="Work">Read by the lane's own handlers only.</param>
internal sealed record ConsumerLane(string Queue, int Prefetch, Channel<Delivery> Work)
{
    public ConsumerLane(string queue, int prefetch)
        : this(queue, prefetch, Channel.CreateUnbounded<Delivery>(new UnboundedChannelOptions { SingleWriter = false, SingleReader = false }))
    {
    }
}
