namespace Notifications.Consumer.Relay;

/// <summary>
/// A circuit breaker's times: since when it is open (across failed probes, which open it again) and when its next probe is
/// due. Polly keeps these to itself; the breakers log them, and their waiters wait for the probe.
/// </summary>
internal sealed class BreakerClock(TimeProvider time)
{
    private readonly Lock _gate = new();
    private DateTimeOffset? _openSince;
    private DateTimeOffset _probeAt;

    /// <summary>When the breaker lets the next try through as its probe (meaningful while open).</summary>
    public DateTimeOffset ProbeAt
    {
        get
        {
            lock (_gate)
            {
                return _probeAt;
            }
        }
    }

    /// <summary>The breaker opened for <paramref name="breakDuration"/>; true when it was closed before (not a failed probe).</summary>
    public bool Opened(TimeSpan breakDuration)
    {
        var now = time.GetUtcNow();
        lock (_gate)
        {
            bool first = _openSince is null;
            _openSince ??= now;
            _probeAt = now + breakDuration;
            return first;
        }
    }

    /// <summary>The breaker closed; returns how long it was open.</summary>
    public TimeSpan Closed()
    {
        var now = time.GetUtcNow();
        lock (_gate)
        {
            var openFor = now - (_openSince ?? now);
            _openSince = null;
            return openFor;
        }
    }
}
