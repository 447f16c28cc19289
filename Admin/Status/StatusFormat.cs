using System.Globalization;

namespace Notifications.Admin.Status;

/// <summary>How the figures of a <see cref="StatusReport"/> read, the same in the command's text and the console's page.</summary>
internal static class StatusFormat
{
    /// <summary>A count, with "+" when the count stopped at its cap (the backlog is larger).</summary>
    public static string Rows(long count, bool capped) => count.ToString("N0", CultureInfo.InvariantCulture) + (capped ? "+" : "");

    /// <summary>A ratio as a percentage with two decimals; "n/a (none)" when nothing was counted.</summary>
    public static string Percent(double ratio) =>
        double.IsNaN(ratio) ? "n/a (none)" : (ratio * 100).ToString("F2", CultureInfo.InvariantCulture) + " %";

    /// <summary>
    /// A rate limit's configured rate as its consumers' last lease wrote it ("100/s", "30/min"), or why it is not known: no
    /// consumer of a version that writes it (040) has leased yet.
    /// </summary>
    public static string ConfiguredRate(Shared.Data.RateLimitState limit) => limit.Interval is not { } interval
        ? "not written yet"
        : 1 / interval.TotalSeconds is var perSecond && perSecond >= 1
            ? FormattableString.Invariant($"{perSecond:0.##}/s")
            : FormattableString.Invariant($"{perSecond * 60:0.##}/min");

    /// <summary>A rate limit's state: "configured rate" or "slowed down: interval x4 until 12:00:05Z", and how far its slots are leased ahead.</summary>
    public static string RateLimit(Shared.Data.RateLimitState limit)
    {
        string rate = limit.IsSlowedDown
            ? FormattableString.Invariant($"slowed down: interval x{limit.SlowFactor:0.##} until {limit.SlowedUntil:HH:mm:ss}Z")
            : "configured rate";
        return limit.BookedAhead > TimeSpan.Zero
            ? FormattableString.Invariant($"{rate}; slots leased {limit.BookedAhead.TotalMilliseconds:N0} ms ahead")
            : $"{rate}; idle";
    }
}
