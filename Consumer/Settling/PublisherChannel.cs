using RabbitMQ.Client;

namespace Notifications.Consumer.Settling;

/// <summary>
/// One confirm channel of the consumer's <see cref="OutboundPublisher"/> and the publishes awaiting their confirms on it. A
/// channel given up after a failed publish (a nack, a return, a timeout) is retired: it takes no new publish and is closed
/// once the last one in flight on it has its answer. Closing it at once would fail those too, though the broker may have
/// taken them, and their retries would put second copies (a dead letter twice in the dead queue).
/// </summary>
internal sealed class PublisherChannel(IChannel channel)
{
    private readonly Lock _gate = new();
    private int _inFlight;
    private bool _retired;
    private bool _closed;

    public IChannel Channel => channel;

    /// <summary>True while it takes new publishes: open and not retired.</summary>
    public bool IsUsable
    {
        get
        {
            lock (_gate)
            {
                return !_retired && channel.IsOpen;
            }
        }
    }

    /// <summary>Counts a publish in; false once retired (the caller takes another channel).</summary>
    public bool TryEnter()
    {
        lock (_gate)
        {
            if (_retired)
            {
                return false;
            }

            _inFlight++;
            return true;
        }
    }

    /// <summary>A publish has its answer; a retired channel is closed after its last one.</summary>
    public ValueTask ExitAsync()
    {
        lock (_gate)
        {
            _inFlight--;
        }

        return CloseIfIdleAsync();
    }

    /// <summary>No new publish from now; closed at once if none is in flight, else after the last.</summary>
    public ValueTask RetireAsync()
    {
        lock (_gate)
        {
            _retired = true;
        }

        return CloseIfIdleAsync();
    }

    private ValueTask CloseIfIdleAsync()
    {
        lock (_gate)
        {
            if (!_retired || _inFlight > 0 || _closed)
            {
                return ValueTask.CompletedTask;
            }

            _closed = true;
        }

        return channel.DisposeAsync();
    }
}
