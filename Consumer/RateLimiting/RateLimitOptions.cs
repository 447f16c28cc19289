using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// Fleet-wide send rates (section <c>RateLimits</c>): <c>RateLimits:Relay = 100/s</c> for every message,
/// <c>RateLimits:Domains:gmail.com = 50/s</c> per recipient domain. Held for all consumer processes together
/// by a GCRA row per limit in the database. Nothing configured: no limit, no database round trip.
/// </summary>
internal sealed class RateLimitOptions
{
    public const string SectionName = "RateLimits";

    /// <summary>The rate of every send to the relay, e.g. <c>100/s</c>; none when unset.</summary>
    public string? Relay { get; set; }

    /// <summary>Rates per recipient domain (exact match, case-insensitive), e.g. <c>gmail.com = 50/s</c>.</summary>
    public Dictionary<string, string> Domains { get; set; } = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>The most SMTP connections one consumer process opens to the relay (caps <c>Consumer:Handlers</c>); none when unset.</summary>
    [Range(1, 10_000)]
    public int? Connections { get; set; }

    /// <summary>
    /// How much of the rate one database round trip leases (e.g. 10 ms of 200/s = 2 sends, at least 1): short, so the
    /// processes' slots interleave and a stalled process holds little of the fleet's time.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan LeaseDuration { get; set; } = TimeSpan.FromMilliseconds(10);

    /// <summary>
    /// How late a slot may still be spent (a later one is given up): any one second holds at most rate × (1 s + this) + 1
    /// sends of the whole fleet. Also how much of an idle moment a lease is forgiven.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan SlotTolerance { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Limits up to this many sends a second also keep the send window: a send starts only while fewer than the rate ×
    /// (1 s + <see cref="SlotTolerance"/>) of the fleet's sends are in flight or ended within the last second, so no second at
    /// the receiver holds more, however long the sends take (two more database statements a send). 0: no window.
    /// </summary>
    [Range(0, 100_000)]
    public int SendWindowUpTo { get; set; } = 1_000;

    /// <summary>A "slow down" reply (421, 451 4.7.x, 452) divides the destination's rate by this.</summary>
    [Range(1.1, 100.0)]
    public double SlowDownFactor { get; set; } = 2;

    /// <summary>The most a destination's rate is divided by, however many slow-down replies come.</summary>
    [Range(1.1, 10_000.0)]
    public double MaxSlowDown { get; set; } = 16;

    /// <summary>How long after the last slow-down reply the reduced rate holds; then the configured rate is back.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "1.00:00:00")]
    public TimeSpan SlowDownFor { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>How many messages of one limited domain a process holds unacked at once (its lane's prefetch); 0 = the domain's rate × 1 s, at least 10.</summary>
    [Range(0, 65_535)]
    public int LanePrefetch { get; set; }
}
