namespace Notifications.Consumer.Sending.Smtp;

/// <summary>
/// Gives each command and reply its own timeout linked to the caller's token. One source is reset and
/// reused between operations (<see cref="CancellationTokenSource.TryReset"/>) rather than a linked
/// source allocated per command, which the hot path would pay thousands of times a second.
/// </summary>
internal sealed class CommandTimer : IDisposable
{
    private CancellationTokenSource source = new();
    private CancellationTokenRegistration callerLink;

    /// <summary>Starts timing one operation; the returned token fires on timeout or when the caller cancels.</summary>
    public CancellationToken Start(TimeSpan timeout, CancellationToken callerToken)
    {
        callerLink = callerToken.UnsafeRegister(static state => ((CancellationTokenSource)state!).Cancel(), source);
        source.CancelAfter(timeout);
        return source.Token;
    }

    /// <summary>Ends the operation started last; call it whether or not the operation succeeded.</summary>
    public void Stop()
    {
        // Dispose waits for a running caller callback, so nothing cancels the source after the reset.
        callerLink.Dispose();
        callerLink = default;
        if (!source.TryReset())
        {
            source.Dispose();
            source = new CancellationTokenSource();
        }
    }

    public void Dispose()
    {
        callerLink.Dispose();
        source.Dispose();
    }
}
