using Notifications.Shared.Data;

namespace Notifications.Consumer.Telemetry;

/// <summary>
/// The delivery SLO over a sliding window: per second of delivery, how many notifications were delivered
/// and how many within <see cref="DeliveryWindow.FastThreshold"/> and <see cref="DeliveryWindow.SloThreshold"/>
/// of their outbox insert. A ring of one-second slots; a slot older than the window is reused.
/// </summary>
internal sealed class SloWindow
{
    private readonly Lock _lock = new();
    private readonly TimeSpan _window;
    private readonly long[] _second;
    private readonly long[] _delivered;
    private readonly long[] _fast;
    private readonly long[] _slo;

    public SloWindow(TimeSpan window)
    {
        _window = window;
        int slots = Math.Max(60, (int)Math.Ceiling(window.TotalSeconds));
        _second = new long[slots];
        _delivered = new long[slots];
        _fast = new long[slots];
        _slo = new long[slots];
        Array.Fill(_second, long.MinValue);
    }

    public void Record(TimeSpan latency, DateTimeOffset deliveredAt)
    {
        long second = deliveredAt.ToUnixTimeSeconds();
        int slot = (int)(((second % _second.Length) + _second.Length) % _second.Length);
        lock (_lock)
        {
            if (_second[slot] != second)
            {
                (_second[slot], _delivered[slot], _fast[slot], _slo[slot]) = (second, 0, 0, 0);
            }

            _delivered[slot]++;
            _fast[slot] += latency <= DeliveryWindow.FastThreshold ? 1 : 0;
            _slo[slot] += latency <= DeliveryWindow.SloThreshold ? 1 : 0;
        }
    }

    /// <summary>The deliveries of the window ending at <paramref name="now"/> (its current second included).</summary>
    public DeliveryWindow Snapshot(DateTimeOffset now)
    {
        long current = now.ToUnixTimeSeconds();
        long windowSeconds = (long)Math.Ceiling(_window.TotalSeconds);
        long delivered = 0, fast = 0, slo = 0, lastMinute = 0;
        lock (_lock)
        {
            for (int i = 0; i < _second.Length; i++)
            {
                long age = current - _second[i];
                if (_second[i] == long.MinValue || age < 0 || age >= windowSeconds)
                {
                    continue;
                }

                (delivered, fast, slo) = (delivered + _delivered[i], fast + _fast[i], slo + _slo[i]);
                lastMinute += age < 60 ? _delivered[i] : 0;
            }
        }

        return new DeliveryWindow(_window, delivered, fast, slo, lastMinute);
    }
}
