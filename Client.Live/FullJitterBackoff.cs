namespace Notifications.Client.Live;

/// <summary>
/// Full jitter ("Exponential Backoff and Jitter", AWS Architecture Blog): attempt n waits a uniformly random time from zero
/// to min(cap, base × 2^n). Thousands of clients a restarted gateway dropped at once then come back spread over the window,
/// not in waves. Polly's own exponential jitter is the decorrelated kind, hence this delay generator for its retry.
/// </summary>
internal sealed class FullJitterBackoff(TimeSpan baseDelay, TimeSpan cap)
{
    /// <summary>The pause before retry <paramref name="attempt"/> (0 for the first).</summary>
    public TimeSpan Delay(int attempt) => TimeSpan.FromTicks((long)(Random.Shared.NextDouble() * Ceiling(attempt).Ticks));

    /// <summary>The most attempt <paramref name="attempt"/> may wait.</summary>
    public TimeSpan Ceiling(int attempt)
    {
        double ticks = baseDelay.Ticks * Math.Pow(2, Math.Clamp(attempt, 0, 40));
        return ticks >= cap.Ticks ? cap : TimeSpan.FromTicks((long)ticks);
    }
}
