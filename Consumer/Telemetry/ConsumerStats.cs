using Notifications.Consumer.Relay;

namespace Notifications.Consumer.Telemetry;

/// <summary>
/// Running totals of this consumer process, read by logs, tests and the harness (its latencies are the metrics' hop
/// histograms, <see cref="ConsumerMetrics.Hops"/>).
/// </summary>
internal sealed class ConsumerStats(ConsumerMetrics? metrics = null)
{
    private long _delivered;
    private long _duplicates;
    private long _retried;
    private long _deadLettered;
    private long _unknown;
    private long _relayRejected;
    private long _destinationRejected;
    private long _firstDeliveredTicks;

    public long Delivered => Interlocked.Read(ref _delivered);

    public long Duplicates => Interlocked.Read(ref _duplicates);

    public long Retried => Interlocked.Read(ref _retried);

    public long DeadLettered => Interlocked.Read(ref _deadLettered);

    public long Unknown => Interlocked.Read(ref _unknown);

    /// <summary>Sends the open SMTP relay breaker turned away (the messages went back unspent).</summary>
    public long RelayRejected => Interlocked.Read(ref _relayRejected);

    /// <summary>Sends an open endpoint's or push provider's breaker turned away (the messages went back unspent).</summary>
    public long DestinationRejected => Interlocked.Read(ref _destinationRejected);

    /// <summary>When the first notification was delivered (the killswitch window starts here), or null.</summary>
    public DateTimeOffset? FirstDeliveredAt =>
        Interlocked.Read(ref _firstDeliveredTicks) is var ticks and > 0 ? new DateTimeOffset(ticks, TimeSpan.Zero) : null;

    public void AddDelivered(TimeSpan latency, DateTimeOffset now, in DeliveryTimings timings = default)
    {
        if (Interlocked.Increment(ref _delivered) == 1)
        {
            Interlocked.CompareExchange(ref _firstDeliveredTicks, now.UtcTicks, 0);
        }

        metrics?.Delivered(latency, timings);
    }

    /// <summary>Deliveries inside the killswitch window, frozen when it closed (null: no window).</summary>
    public long? WindowDelivered { get; private set; }

    /// <summary>The killswitch window's length.</summary>
    public TimeSpan? Window { get; private set; }

    public void CloseWindow(TimeSpan window)
    {
        WindowDelivered = Delivered;
        Window = window;
    }

    public void AddDuplicate()
    {
        Interlocked.Increment(ref _duplicates);
        metrics?.Duplicate();
    }

    public void AddRetried()
    {
        Interlocked.Increment(ref _retried);
        metrics?.Retried();
    }

    public void AddDeadLettered()
    {
        Interlocked.Increment(ref _deadLettered);
        metrics?.DeadLettered();
    }

    public void AddUnknown()
    {
        Interlocked.Increment(ref _unknown);
        metrics?.Unknown();
    }

    /// <summary>A send <paramref name="breaker"/> turned away: counted as the relay's or as a destination's (an endpoint, a provider).</summary>
    public void AddHeldBack(RelayBreaker breaker)
    {
        Interlocked.Increment(ref breaker.Gated ? ref _relayRejected : ref _destinationRejected);
        metrics?.HeldBack(breaker.Gated);
    }
}
