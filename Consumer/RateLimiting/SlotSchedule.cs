namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// One limit's slots as this process holds them: the current lease from the database, handed out one slot
/// at a time in order, each at its own moment (first slot + k × interval), so the process sends at the
/// fleet's pace and never early. A new lease is taken when the current one is used up.
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
            if (_next >= _lease.Count)
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

    public void Dispose() => _gate.Dispose();
}
