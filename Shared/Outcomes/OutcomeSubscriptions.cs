namespace Notifications.Shared.Outcomes;

/// <summary>
/// The event types some enabled endpoint subscribes to, as the last refresh read them (one immutable set, replaced whole):
/// the hot path asks it, never the table (the consumer's deliveries, the gateway's acks). Until the first refresh succeeded a caller waits for it, so a consumer that
/// starts with a backlog does not deliver its first notifications without their events.
/// </summary>
public sealed class OutcomeSubscriptions
{
    private readonly TaskCompletionSource _loaded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private volatile IReadOnlySet<string> _types = new HashSet<string>();

    /// <summary>Whether a refresh has succeeded once.</summary>
    public bool IsLoaded => _loaded.Task.IsCompleted;

    /// <summary>Whether an endpoint takes events of <paramref name="type"/>.</summary>
    public ValueTask<bool> WantAsync(string type, CancellationToken cancellationToken) =>
        IsLoaded ? ValueTask.FromResult(_types.Contains(type)) : WaitThenWantAsync(type, cancellationToken);

    /// <summary>Replaces the set with <paramref name="types"/> (a refresh's read).</summary>
    public void Refreshed(IReadOnlySet<string> types)
    {
        _types = types;
        _loaded.TrySetResult();
    }

    private async ValueTask<bool> WaitThenWantAsync(string type, CancellationToken cancellationToken)
    {
        await _loaded.Task.WaitAsync(cancellationToken);
        return _types.Contains(type);
    }
}
