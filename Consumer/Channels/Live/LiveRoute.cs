using Notifications.Consumer.Settling;

namespace Notifications.Consumer.Channels.Live;

/// <summary>
/// Where the live sender publishes: the consumer's current broker publisher, set while the consumer runs (a publisher lives
/// as long as its broker connection, <see cref="Pipeline.ConsumerService"/>).
/// </summary>
internal sealed class LiveRoute
{
    private volatile OutboundPublisher? _publisher;

    /// <summary>Publishes through <paramref name="publisher"/> until the returned scope is disposed.</summary>
    public IDisposable Attach(OutboundPublisher publisher)
    {
        _publisher = publisher;
        return new Detach(this, publisher);
    }

    /// <summary>The current publisher, or null while the consumer has no broker connection.</summary>
    public OutboundPublisher? Publisher => _publisher;

    private sealed class Detach(LiveRoute route, OutboundPublisher publisher) : IDisposable
    {
        public void Dispose() => Interlocked.CompareExchange(ref route._publisher, null, publisher);
    }
}
