using System.Collections.Concurrent;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The hosts that answered 429 or 503 with Retry-After, and until when: no handler of this process sends to a paused host;
/// its notifications are parked in a delay queue until the pause ends, unspent (the fleet's limiter slows a host with a
/// configured rate down for every process as well).
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
}
