namespace Notifications.Shared.Data;

/// <summary>
/// Deliveries in a recent window and how many of them met the delivery SLO thresholds
/// (<see cref="FastThreshold"/>, <see cref="SloThreshold"/> from the outbox insert to the SMTP server's acceptance).
/// </summary>
/// <param name="Window">The window's length, ending now.</param>
/// <param name="Delivered">Notifications delivered in the window.</param>
/// <param name="WithinFast">Of those, delivered within <see cref="FastThreshold"/>.</param>
/// <param name="WithinSlo">Of those, delivered within <see cref="SloThreshold"/>.</param>
/// <param name="LastMinute">Notifications delivered in the last minute (the current rate).</param>
public sealed record DeliveryWindow(TimeSpan Window, long Delivered, long WithinFast, long WithinSlo, long LastMinute)
{
    /// <summary>The SLO's target latency: two minutes from insert to delivery.</summary>
    public static readonly TimeSpan SloThreshold = TimeSpan.FromMinutes(2);

    /// <summary>The "fast" latency: one second.</summary>
    public static readonly TimeSpan FastThreshold = TimeSpan.FromSeconds(1);

    /// <summary>Share delivered within two minutes; NaN when nothing was delivered in the window.</summary>
    public double SloRatio => Ratio(WithinSlo);

    /// <summary>Share delivered within one second; NaN when nothing was delivered in the window.</summary>
    public double FastRatio => Ratio(WithinFast);

    /// <summary>Deliveries per second over the window.</summary>
    public double RatePerSecond => Window <= TimeSpan.Zero ? 0 : Delivered / Window.TotalSeconds;

    private double Ratio(long within) => Delivered == 0 ? double.NaN : (double)within / Delivered;
}
