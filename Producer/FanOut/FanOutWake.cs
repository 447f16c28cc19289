namespace Notifications.Producer.FanOut;

/// <summary>
/// The fan-out stage's idle pause ends early when this producer committed an audience row's job: the row's deliveries
/// start at once, not at the next poll (which finds the jobs of other producers and of expired leases).
/// </summary>
internal sealed class FanOutWake
{
    // At most one signal pending: a job committed while the stage works is found by its next lease anyway.
    private readonly WakeSignal _signal = new();

    /// <summary>A job was committed.</summary>
    public void Wake() => _signal.Set();

    /// <summary>Waits for <see cref="Wake"/> or <paramref name="timeout"/>, whichever comes first.</summary>
    public Task WaitAsync(TimeSpan timeout, CancellationToken cancellationToken) => _signal.WaitAsync(timeout, cancellationToken);
}
