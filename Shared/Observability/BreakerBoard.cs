using System.Collections.Concurrent;

namespace Notifications.Shared.Observability;

/// <summary>
/// The circuit breakers of a process and the state each is in now, by name (<c>relay</c>, <c>webhook:orders</c>,
/// <c>push:fcm</c>), served as JSON on the operations endpoint's <c>/breakers</c> for the operators' console. A breaker
/// reports each change; one the process never built is not listed. A process without breakers serves an empty list.
/// </summary>
public sealed class BreakerBoard(TimeProvider time)
{
    private readonly ConcurrentDictionary<string, BreakerReading> _breakers = new(StringComparer.Ordinal);

    /// <summary>The breaker <paramref name="name"/> is now in <paramref name="state"/> (closed, open, half-open).</summary>
    public void Report(string name, string state) =>
        _breakers.AddOrUpdate(
            name,
            static (n, arg) => new BreakerReading(n, arg.state, arg.now),
            // The same state reported again keeps the instant it was entered.
            static (n, old, arg) => old.State == arg.state ? old : new BreakerReading(n, arg.state, arg.now),
            (state, now: time.GetUtcNow()));

    /// <summary>Every breaker reported so far, by name.</summary>
    public IReadOnlyList<BreakerReading> Read() => _breakers.Values.OrderBy(b => b.Name, StringComparer.Ordinal).ToList();
}
