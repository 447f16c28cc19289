using Notifications.Consumer.RateLimiting;

namespace Notifications.UnitTests.RateLimiting;

/// <summary>How a process maps the database's clock: by the lease with the shortest round trip, not the latest one.</summary>
public sealed class DatabaseClockTests
{
    [Fact]
    public void ToTimestamp_ALeaseWithALongRoundTrip_DoesNotMoveTheMappingOfAShortOne()
    {
        // Only timestamps given to it are read: the system clock's frequency is all it takes from the provider.
        var clock = new DatabaseClock(TimeProvider.System);
        long ms = TimeProvider.System.TimestampFrequency / 1000;

        // Round trip of 2 ms: the database read 1,000,000 µs at (about) 1 ms.
        clock.Observe(1_000_000, 0, 2 * ms);
        Assert.Equal(11 * ms, clock.ToTimestamp(1_010_000));

        // A round trip of 600 ms (a stalled process): its middle would be 300 ms off; the 2 ms sample stays.
        clock.Observe(1_100_000, 100 * ms, 700 * ms);
        Assert.Equal(11 * ms, clock.ToTimestamp(1_010_000));

        // A shorter one replaces it.
        clock.Observe(1_200_000, 200 * ms, 201 * ms);
        Assert.Equal((200 * ms) + (ms / 2) + (10 * ms), clock.ToTimestamp(1_210_000));
    }
}
