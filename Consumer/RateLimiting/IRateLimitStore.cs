namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// The fleet's shared GCRA rows (table <c>rate_limit</c>), one implementation per SQL dialect. Every call is one
/// statement on one row, atomic under the row's lock, with the database's clock.
/// </summary>
internal interface IRateLimitStore
{
    /// <summary>
    /// Leases <paramref name="count"/> consecutive send slots of the limit <paramref name="key"/> at
    /// <paramref name="interval"/> apart (longer while slowed down); a moment the limit was idle is forgiven up to
    /// <paramref name="grace"/>, so a lease that arrives a little late loses no slots.
    /// </summary>
    Task<Lease> LeaseAsync(string key, int count, TimeSpan interval, TimeSpan grace, CancellationToken cancellationToken);

    /// <summary>
    /// A destination asked to slow down: its interval is multiplied by <paramref name="factor"/> (again at most once per
    /// <paramref name="settle"/>, up to <paramref name="maxFactor"/> in all) until <paramref name="holdFor"/> after this call.
    /// Returns the factor now in force.
    /// </summary>
    Task<double> SlowDownAsync(string key, double factor, double maxFactor, TimeSpan settle, TimeSpan holdFor, CancellationToken cancellationToken);
}

/// <summary>A lease of consecutive send slots.</summary>
/// <param name="Count">How many slots.</param>
/// <param name="FirstIn">How long from the database's now until the first slot (zero or negative: at once).</param>
/// <param name="Interval">The time between two slots (the configured one, or longer while slowed down).</param>
/// <param name="FirstUs">The first slot by the database's clock, microseconds since the Unix epoch.</param>
internal readonly record struct Lease(int Count, TimeSpan FirstIn, TimeSpan Interval, long FirstUs);

/// <summary>What the lease statements return: microseconds by the database's clock.</summary>
internal sealed record LeaseRow(long TatUs, long NowUs, long IntervalUs)
{
    public Lease ToLease(int count)
    {
        long first = TatUs - (count * IntervalUs);
        return new(count, TimeSpan.FromMicroseconds(first - NowUs), TimeSpan.FromMicroseconds(IntervalUs), first);
    }
}
