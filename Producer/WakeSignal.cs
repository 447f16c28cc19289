namespace Notifications.Producer;

/// <summary>
/// A signal that ends a loop's idle pause early: at most one pending, so a signal given while the loop works is kept and
/// its next pause returns at once (the work it was about may have been committed after the loop last looked). The urgent
/// lane's and the fan-out stage's wakes.
/// </summary>
internal sealed class WakeSignal
{
    private readonly SemaphoreSlim _signal = new(0, 1);
    private readonly Lock _gate = new();

    /// <summary>Wakes the current or next pause.</summary>
    public void Set()
    {
        // Only Set releases, and it checks under the lock: the count never goes above its maximum.
        lock (_gate)
        {
            if (_signal.CurrentCount == 0)
            {
                _signal.Release();
            }
        }
    }

    /// <summary>Waits for <see cref="Set"/> or <paramref name="timeout"/>, whichever comes first.</summary>
    public Task WaitAsync(TimeSpan timeout, CancellationToken cancellationToken) => _signal.WaitAsync(timeout, cancellationToken);
}
