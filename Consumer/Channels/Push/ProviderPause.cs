namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// A provider's Retry-After in this process: after a 429 or 503 that named one (capped by <see cref="PushOptions.MaxRetryAfter"/>),
/// no handler sends to that provider until then; its notifications are parked in a delay queue meanwhile, unspent. The fleet's
/// rate for it goes down through the rate limiter as well when the provider's host has a limit.
/// </summary>
internal sealed class ProviderPause(TimeProvider time)
{
    private long _untilTicks;

    /// <summary>When the pause ends (in the past when there is none).</summary>
    public DateTimeOffset Until => new(Interlocked.Read(ref _untilTicks), TimeSpan.Zero);

    /// <summary>No request before <paramref name="until"/>: a later instant than the current pause's wins.</summary>
    public void Extend(DateTimeOffset until)
    {
        long ticks = until.UtcTicks;
        long seen = Interlocked.Read(ref _untilTicks);
        while (ticks > seen)
        {
            long found = Interlocked.CompareExchange(ref _untilTicks, ticks, seen);
            if (found == seen)
            {
                return;
            }

            seen = found;
        }
    }

    /// <summary>When requests to the provider may go again, or null when it is not paused.</summary>
    public DateTimeOffset? PausedUntil => Until is var until && until > time.GetUtcNow() ? until : null;
}
