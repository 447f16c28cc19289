namespace Notifications.Shared.Data;

/// <summary>
/// One row of <c>rate_limit</c> as operators read it (docs/rate-limits.md): the interval in force is the configured rate's
/// multiplied by <see cref="SlowFactor"/> while <see cref="IsSlowedDown"/>, else the configured one.
/// </summary>
/// <param name="Name">The limit: <c>relay</c> or <c>domain:{name}</c>.</param>
/// <param name="SlowFactor">What a "slow down" reply last divided the rate by (1: never).</param>
/// <param name="SlowedUntil">Until when the reduced rate holds (by the database's clock); in the past: the configured rate is back.</param>
/// <param name="BookedAhead">How far ahead of now the fleet has leased its slots (zero: idle).</param>
/// <param name="ReadAt">When it was read, by the database's clock.</param>
/// <param name="Interval">
/// The configured interval between sends, as the last lease wrote it (the rate in force is one send per interval); null
/// until a consumer that writes it leased.
/// </param>
public sealed record RateLimitState(string Name, double SlowFactor, DateTimeOffset SlowedUntil, TimeSpan BookedAhead, DateTimeOffset ReadAt, TimeSpan? Interval = null)
{
    /// <summary>Whether the reduced rate is in force now.</summary>
    public bool IsSlowedDown => SlowedUntil > ReadAt && SlowFactor > 1;

    /// <summary>A row of the query, in microseconds since the Unix epoch by the database's clock.</summary>
    public static RateLimitState FromRow(string name, double slowFactor, long slowUntilUs, long tatUs, long nowUs, long? intervalUs = null) => new(
        name,
        slowFactor,
        DateTimeOffset.UnixEpoch.AddTicks(slowUntilUs * 10),
        TimeSpan.FromTicks(Math.Max(0, tatUs - nowUs) * 10),
        DateTimeOffset.UnixEpoch.AddTicks(nowUs * 10),
        intervalUs is > 0 ? TimeSpan.FromTicks(intervalUs.Value * 10) : null);
}
