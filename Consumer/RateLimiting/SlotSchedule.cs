namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// One limit's slots as this process holds them: the current lease from the database, handed out one slot
/// at a time in order, each at its own moment (first slot + k × interval), so the process sends at the
/// fleet's pace and never early. A new lease is taken when the current one is used up, or when its slots are more
/// than one lease's span overdue (left over while idle: using them all now would be a burst beyond GCRA's tolerance).
/// </summary>
internal sealed class SlotSchedule(TimeProvider time) : IDisposable
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private long _leasedAt;
    private Lease _lease;
    private int _next;

    /// <summary>Takes the next slot (leasing more through <paramref name="lease"/> when none is left); returns how long until it is due.</summary>
    public async ValueTask<TimeSpan> TakeAsync(Func<CancellationToken, Task<Lease>> lease, CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken);
        try
        {
            if (!HasCurrentSlot())
            {
                long before = time.GetTimestamp();
                _lease = await lease(cancellationToken);
                // The database's "now" lies within the round trip; its middle is the best guess of it here.
                _leasedAt = before + ((time.GetTimestamp() - before) / 2);
                _next = 0;
            }

            var due = _lease.FirstIn + (_lease.Interval * _next++);
            return due - time.GetElapsedTime(_leasedAt);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Takes the next slot only when this process holds it already and it is due: never waits, never leases.</summary>
    public bool TryTakeDue()
    {
        if (!_gate.Wait(0))
        {
            return false;
        }

        try
        {
            if (!HasCurrentSlot() || _lease.FirstIn + (_lease.Interval * _next) > time.GetElapsedTime(_leasedAt))
            {
                return false;
            }

            _next++;
            return true;
        }
        finally
        {
            _gate.Release();
        }
    }

    public void Dispose() => _gate.Dispose();

    private bool HasCurrentSlot()
    {
        var span = _lease.Interval * _lease.Count;
        return _next < _lease.Count && time.GetElapsedTime(_leasedAt) <= _lease.FirstIn + span + span;
    }
}
