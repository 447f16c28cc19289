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

    /// <summary>
    /// Lets one send under the limit <paramref name="key"/> into the limit's send window when fewer than <paramref name="size"/>
    /// sends of the fleet are in it: in flight, or ended within the last second. Counted and written under a lock of the
    /// window's own (not the rate_limit row's, which the leases take), so concurrent consumers are let in one at a time. A
    /// send whose end is never recorded counts as in flight until <paramref name="endsWithin"/> after it was let in. Deletes
    /// the limit's entries that left the window. Returns the new entry's id, or no id and how long until the window's oldest
    /// ended send leaves it.
    /// </summary>
    Task<WindowEntry> EnterWindowAsync(string key, int size, TimeSpan endsWithin, CancellationToken cancellationToken);

    /// <summary>
    /// Records the end of the sends <paramref name="ids"/> (<see cref="EnterWindowAsync"/>) as now: each leaves its window a second
    /// later. Recorded after the server's answer, never before it, so an end is never earlier than the receiver saw the message.
    /// </summary>
    Task LeaveWindowAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken);
}

/// <summary>A send let into its limit's send window (<see cref="Id"/>), or not yet: then <see cref="Wait"/> is how long until
/// the window's oldest ended send leaves it (a short retry when every send in it is still in flight).</summary>
internal readonly record struct WindowEntry(long? Id, TimeSpan Wait);

/// <summary>What the window statements return: the entry's id (null: not let in) and the wait in microseconds.</summary>
internal sealed record WindowRow(long? Id, long WaitUs)
{
    /// <summary>When every send in a full window is still in flight: how soon to count again.</summary>
    public static readonly TimeSpan InFlightRetry = TimeSpan.FromMilliseconds(5);

    public WindowEntry ToEntry() => new(Id, TimeSpan.FromMicroseconds(WaitUs));
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
