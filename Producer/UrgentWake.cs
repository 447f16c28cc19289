namespace Notifications.Producer;

/// <summary>
/// What the urgent lane's idle pause also waits on: a signal from <see cref="UrgentListenerService"/> when an urgent
/// row was committed (PostgreSQL's NOTIFY), and whether that listener is connected, which lets the lane poll
/// less often (<see cref="ProducerOptions.UrgentMaxPollIntervalListening"/>).
/// </summary>
internal sealed class UrgentWake
{
    private readonly WakeSignal _signal = new();
    private volatile bool _listening;
    private long _listenStarts;
    private long _pauseTicks = -1;

    /// <summary>True while the listener holds a LISTEN on a connection with the trigger in place.</summary>
    public bool IsListening => _listening;

    /// <summary>How many times the listener started listening (1 after start, one more after each reconnect).</summary>
    public long ListenStarts => Interlocked.Read(ref _listenStarts);

    /// <summary>The length of the pause the lane is in now; null while it claims and publishes.</summary>
    public TimeSpan? Pause => Interlocked.Read(ref _pauseTicks) is var ticks and >= 0 ? TimeSpan.FromTicks(ticks) : null;

    /// <summary>Wakes the lane's current or next pause.</summary>
    public void Signal() => _signal.Set();

    /// <summary>
    /// The listener started or stopped listening. Either way the lane looks once now: rows committed while no one
    /// listened were never notified, and a lane in a long listening pause must go back to the shorter poll.
    /// </summary>
    public void SetListening(bool listening)
    {
        if (listening)
        {
            Interlocked.Increment(ref _listenStarts);
        }

        _listening = listening;
        Signal();
    }

    /// <summary>Waits for a signal or <paramref name="timeout"/>, whichever comes first.</summary>
    public async Task WaitAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        Interlocked.Exchange(ref _pauseTicks, timeout.Ticks);
        try
        {
            await _signal.WaitAsync(timeout, cancellationToken);
        }
        finally
        {
            Interlocked.Exchange(ref _pauseTicks, -1);
        }
    }
}
