namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// One limit's slots as this process holds them: the current lease from the database, handed out one slot
/// at a time in order, each at its own moment (first slot + k × interval), so the process sends at the
/// fleet's pace and never early. A slot more than <c>tolerance</c> overdue (<see cref="RateLimitOptions.SlotTolerance"/>) is
/// given up, never spent late: a process that comes late to its slots (idle, or stalled) would otherwise send them all at
/// once, on top of the slots due now — a burst beyond GCRA's tolerance. So every send under the limit happens between its
/// slot's moment and the tolerance after it, and any one second holds at most rate × (1 s + tolerance) + 1 sends for the
/// whole fleet. A new lease is taken when the current one is used up or given up. Leases are short (a few slots), so a
/// process holds little of the fleet's time: what a stalled process gives up is its few slots, not the next 100 ms of
/// them, and the processes' slots interleave, so none has to send at the fleet's whole rate while it holds a lease.
/// A rate-limit lane takes a slot when it lets a message in and holds it for that message's send: the handler spends a
/// held slot right before the SMTP transaction (<see cref="TrySpendHeld"/>) while it is within the tolerance of its moment,
/// else it takes a new one — a message delayed on its way (the delivery-log check, a busy machine) never sends late.
/// Slot moments come from the database's clock (<see cref="DatabaseClock"/>), so all processes agree on them.
/// </summary>
internal sealed class SlotSchedule(TimeProvider time, TimeSpan tolerance) : IDisposable
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    // Slots taken for messages on their way to their send, oldest first: when each is due and until when it may be spent.
    private readonly Queue<(long Due, long Expires)> _held = new();
    private readonly Lock _heldLock = new();
    private readonly DatabaseClock _clock = new(time);
    // The current lease's first slot as a timestamp of this process.
    private long _firstAt;
    private Lease _lease;
    private int _next;

    /// <summary>
    /// Takes the next slot (leasing more through <paramref name="lease"/> when none is left); returns how long until it is due.
    /// With <paramref name="hold"/> it is held for a send to spend (<see cref="TrySpendHeld"/>).
    /// </summary>
    public async ValueTask<TimeSpan> TakeAsync(Func<CancellationToken, Task<Lease>> lease, CancellationToken cancellationToken, bool hold = false)
    {
        await _gate.WaitAsync(cancellationToken);
        try
        {
            if (!HasCurrentSlot())
            {
                long before = time.GetTimestamp();
                _lease = await lease(cancellationToken);
                _clock.Observe(_lease.FirstUs - (long)_lease.FirstIn.TotalMicroseconds, before, time.GetTimestamp());
                _firstAt = _clock.ToTimestamp(_lease.FirstUs);
                _next = 0;
            }

            long due = Due(_next);
            if (hold)
            {
                Hold(_next);
            }

            _next++;
            return time.GetElapsedTime(time.GetTimestamp(), due);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Takes and holds the next slot only when this process holds it already and it is due: never waits, never leases.</summary>
    public bool TryTakeDue()
    {
        if (!_gate.Wait(0))
        {
            return false;
        }

        try
        {
            if (!HasCurrentSlot() || Due(_next) > time.GetTimestamp())
            {
                return false;
            }

            Hold(_next++);
            return true;
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Spends the oldest held slot that is due and still within the tolerance of its moment; false when there is none.</summary>
    public bool TrySpendHeld()
    {
        long now = time.GetTimestamp();
        lock (_heldLock)
        {
            while (_held.TryPeek(out var slot) && slot.Expires < now)
            {
                _held.Dequeue();
            }

            if (!_held.TryPeek(out var oldest) || oldest.Due > now)
            {
                return false;
            }

            _held.Dequeue();
            return true;
        }
    }

    /// <summary>The interval between slots in force (the last lease's: longer while slowed down); zero before the first lease.</summary>
    public TimeSpan Interval => _lease.Interval;

    public void Dispose() => _gate.Dispose();

    // Holds slot k of the current lease (under the gate).
    private void Hold(int k)
    {
        long due = Due(k);
        long expires = due + Timestamp(tolerance);
        lock (_heldLock)
        {
            while (_held.TryPeek(out var slot) && slot.Expires < time.GetTimestamp())
            {
                _held.Dequeue();
            }

            _held.Enqueue((due, expires));
        }
    }

    private long Due(int k) => _firstAt + Timestamp(_lease.Interval * k);

    private long Timestamp(TimeSpan span) => (long)(span.TotalSeconds * time.TimestampFrequency);

    // Skips the slots more than the tolerance overdue; true when one is left.
    private bool HasCurrentSlot()
    {
        if (_next >= _lease.Count)
        {
            return false;
        }

        // Slot k is overdue by (now - first) - k × interval; stale while that exceeds the tolerance.
        var late = time.GetElapsedTime(_firstAt) - tolerance;
        if (late > TimeSpan.Zero)
        {
            _next = (int)Math.Max(_next, Math.Min(_lease.Count, Math.Ceiling(late / _lease.Interval)));
        }

        return _next < _lease.Count;
    }
}
