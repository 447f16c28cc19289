namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// Maps the database's clock (µs since the Unix epoch, as a lease reports its "now") onto this process's timestamps.
/// Each lease is a sample, off by up to half its round trip (the database read its clock somewhere within it). The
/// sample with the shortest round trip of the last minute is kept: on a loaded machine one lease can take hundreds of
/// milliseconds, and mapping its slots by it would move this process's slots onto another process's.
/// </summary>
internal sealed class DatabaseClock(TimeProvider time)
{
    // A better sample is kept this long at most, so a stepped database clock is followed within a minute.
    private static readonly TimeSpan KeepFor = TimeSpan.FromMinutes(1);
    private long _anchorUs;
    private long _anchorAt;
    private long _roundTrip = long.MaxValue;
    private long _observedAt;

    /// <summary>A lease sent at <paramref name="before"/> and answered at <paramref name="after"/> said the database's now was <paramref name="databaseNowUs"/>.</summary>
    public void Observe(long databaseNowUs, long before, long after)
    {
        long roundTrip = after - before;
        if (roundTrip <= _roundTrip || time.GetElapsedTime(_observedAt, after) > KeepFor)
        {
            _anchorUs = databaseNowUs;
            _anchorAt = before + (roundTrip / 2);
            _roundTrip = roundTrip;
            _observedAt = after;
        }
    }

    /// <summary>The timestamp of this process at which the database's clock reads <paramref name="databaseUs"/>.</summary>
    public long ToTimestamp(long databaseUs) => _anchorAt + (long)((databaseUs - _anchorUs) * (time.TimestampFrequency / 1_000_000.0));
}
