using System.Collections.Concurrent;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The hosts that answered 429 or 503 with Retry-After, and until when: every handler of this process waits for a host's
/// pause before sending to it again (the fleet's limiter slows a host with a configured rate down for every process as well).
/// </summary>
internal sealed class RetryAfterPauses(TimeProvider time)
{
    private readonly ConcurrentDictionary<string, DateTimeOffset> _until = new(StringComparer.Ordinal);

    /// <summary>Pauses sends to <paramref name="host"/> until <paramref name="until"/> (a later pause already set stays).</summary>
    public void Pause(string host, DateTimeOffset until) =>
        _until.AddOrUpdate(host, until, (_, existing) => existing > until ? existing : until);

    /// <summary>When sends to <paramref name="host"/> may go again, or null when it is not paused.</summary>
    public DateTimeOffset? PausedUntil(string host) =>
        _until.TryGetValue(host, out var until) && until > time.GetUtcNow() ? until : null;

    /// <summary>Returns when <paramref name="host"/> is not paused.</summary>
    public async Task WaitAsync(string host, CancellationToken cancellationToken)
    {
        while (PausedUntil(host) is { } until)
        {
            var wait = until - time.GetUtcNow();
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait, time, cancellationToken);
            }
        }
    }
}
