namespace Notifications.Shared.Observability;

/// <summary>
/// The subscribers a live gateway holds connections for, served on the operations endpoint's <c>/presence</c> for the
/// operators' console. The gateway hands its presence in (<see cref="Serve"/>); a process that never does answers 404 there.
/// </summary>
public sealed class PresenceBoard
{
    private Func<IReadOnlyList<PresenceReading>>? _source;

    /// <summary>Where <see cref="Read"/> takes the connected subscribers from (the gateway's presence, read when asked).</summary>
    public void Serve(Func<IReadOnlyList<PresenceReading>> source) => Volatile.Write(ref _source, source);

    /// <summary>The connected subscribers now; null in a process that is not a gateway.</summary>
    public IReadOnlyList<PresenceReading>? Read() => Volatile.Read(ref _source)?.Invoke();
}
