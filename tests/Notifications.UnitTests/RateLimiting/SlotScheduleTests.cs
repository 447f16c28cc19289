using Notifications.Consumer.RateLimiting;

namespace Notifications.UnitTests.RateLimiting;

/// <summary>How one process spends a lease: in order, each slot at its moment, a new lease only when used up or stale.</summary>
public sealed class SlotScheduleTests
{
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(5);
    // As long as a lease's span (3 slots × 5 ms) in most cases below: how late a slot may still be spent.
    private static readonly TimeSpan Tolerance = TimeSpan.FromMilliseconds(15);
    private readonly SteppedTime _time = new();
    private int _leases;

    [Fact]
    public async Task TakeAsync_SpendsEachLeaseSlotBySlot_AndLeasesAgainWhenUsedUp()
    {
        using var schedule = new SlotSchedule(_time, Tolerance);

        var waits = new List<TimeSpan>();
        for (int i = 0; i < 6; i++)
        {
            waits.Add(await schedule.TakeAsync(LeaseAsync, CancellationToken.None));
        }

        Assert.Equal(2, _leases);
        // Lease 1: slots at 10, 15, 20 ms from the database's now; lease 2 likewise (the clock did not move).
        Assert.Equal([10, 15, 20, 10, 15, 20], waits.Select(w => w.TotalMilliseconds));
    }

    [Fact]
    public async Task TryTakeDue_OnlyASlotAlreadyHeldAndDue_NeverLeases()
    {
        using var schedule = new SlotSchedule(_time, Tolerance);
        Assert.False(schedule.TryTakeDue());   // nothing held
        Assert.Equal(0, _leases);

        await schedule.TakeAsync(LeaseAsync, CancellationToken.None);   // slot 0 (10 ms)
        Assert.False(schedule.TryTakeDue());   // slot 1 is due at 15 ms
        _time.Advance(TimeSpan.FromMilliseconds(15));
        Assert.True(schedule.TryTakeDue());
        Assert.False(schedule.TryTakeDue());   // slot 2 at 20 ms
        _time.Advance(TimeSpan.FromMilliseconds(5));
        Assert.True(schedule.TryTakeDue());
        Assert.False(schedule.TryTakeDue());   // used up
        Assert.Equal(1, _leases);
    }

    [Fact]
    public async Task TakeAsync_LeftoverSlotsLongOverdue_AreDroppedForANewLease()
    {
        using var schedule = new SlotSchedule(_time, Tolerance);
        await schedule.TakeAsync(LeaseAsync, CancellationToken.None);

        // The lease spans 10-25 ms; two spans later its leftovers would go out as a burst: a new lease instead.
        _time.Advance(TimeSpan.FromMilliseconds(10 + 15 + 15 + 1));
        Assert.False(schedule.TryTakeDue());
        var wait = await schedule.TakeAsync(LeaseAsync, CancellationToken.None);

        Assert.Equal(2, _leases);
        Assert.Equal(TimeSpan.FromMilliseconds(10), wait);
    }

    [Fact]
    public async Task TryTakeDue_SlotsMoreThanTheToleranceOverdue_AreGivenUpNotSentInABurst()
    {
        using var schedule = new SlotSchedule(_time, Tolerance);
        await schedule.TakeAsync(LeaseAsync, CancellationToken.None);   // slot 0 (10 ms)

        // At 31 ms slot 1 (15 ms) is 16 ms late, more than the tolerance of 15 ms; slot 2 (20 ms) is 11 ms late.
        _time.Advance(TimeSpan.FromMilliseconds(31));
        Assert.True(schedule.TryTakeDue());    // slot 2
        Assert.False(schedule.TryTakeDue());   // slot 1 was given up, not sent with slot 2
        Assert.Equal(1, _leases);
    }

    [Fact]
    public async Task TrySpendHeld_AHeldSlotOnceDueAndUntilTheToleranceLate_NeverASlotTakenWithoutHolding()
    {
        using var schedule = new SlotSchedule(_time, Tolerance);
        await schedule.TakeAsync(LeaseAsync, CancellationToken.None);   // slot 0 (10 ms), for a send at once: not held
        await schedule.TakeAsync(LeaseAsync, CancellationToken.None, hold: true);   // slot 1 (15 ms), held
        Assert.False(schedule.TrySpendHeld());   // not due yet

        _time.Advance(TimeSpan.FromMilliseconds(15));
        Assert.True(schedule.TrySpendHeld());
        Assert.False(schedule.TrySpendHeld());   // spent once

        await schedule.TakeAsync(LeaseAsync, CancellationToken.None, hold: true);   // slot 2 (20 ms)
        _time.Advance(TimeSpan.FromMilliseconds(5 + 15 + 1));   // more than the tolerance of 15 ms past its moment
        Assert.False(schedule.TrySpendHeld());
    }

    [Fact]
    public async Task TakeAsync_ToleranceLongerThanTheLease_SlotsLateByMoreThanTheLeaseButWithinItAreStillSpent()
    {
        // Short leases (3 slots, 15 ms) with a tolerance of 100 ms: a process a little late keeps its slots.
        using var schedule = new SlotSchedule(_time, TimeSpan.FromMilliseconds(100));
        await schedule.TakeAsync(LeaseAsync, CancellationToken.None);   // slot 0 (10 ms)

        _time.Advance(TimeSpan.FromMilliseconds(10 + 60));   // slots 1 and 2 are 55 and 50 ms late
        Assert.True(schedule.TryTakeDue());
        Assert.True(schedule.TryTakeDue());
        Assert.False(schedule.TryTakeDue());   // used up
        Assert.Equal(1, _leases);
    }

    private Task<Lease> LeaseAsync(CancellationToken cancellationToken)
    {
        _leases++;
        return Task.FromResult(new Lease(3, TimeSpan.FromMilliseconds(10), Interval, 0));
    }

    /// <summary>A monotonic clock the test moves by hand.</summary>
    private sealed class SteppedTime : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }
}
