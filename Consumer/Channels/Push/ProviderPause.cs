namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// A provider's Retry-After in this process: after a 429 or 503 that named one, every handler's next request to that provider
/// waits until then (capped by <see cref="PushOptions.MaxRetryAfter"/>). The fleet's rate for it goes down through the rate
/// limiter as well when the provider's host has a limit.
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

    /// <summary>Returns when the pause is over.</summary>
    public Task WaitAsync(CancellationToken cancellationToken)
    {
        var wait = Until - time.GetUtcNow();
        return wait > TimeSpan.Zero ? Task.Delay(wait, time, cancellationToken) : Task.CompletedTask;
    }
}
