namespace Notifications.Client.Live;

/// <summary>A change of a <see cref="LiveClient"/>'s connection.</summary>
/// <param name="state">Where the client is now.</param>
/// <param name="attempt">The connection attempt since the last successful connect, from 1.</param>
/// <param name="retryIn">With <see cref="LiveClientState.Disconnected"/> and <see cref="LiveClientState.Refused"/>: the pause before the next attempt.</param>
/// <param name="error">Why the connection failed or ended, if it did not end on purpose.</param>
public sealed class LiveStateChangedEventArgs(LiveClientState state, int attempt, TimeSpan? retryIn, Exception? error) : EventArgs
{
    /// <summary>Where the client is now.</summary>
    public LiveClientState State { get; } = state;

    /// <summary>The connection attempt since the last successful connect, from 1.</summary>
    public int Attempt { get; } = attempt;

    /// <summary>The pause before the next attempt, when one is coming.</summary>
    public TimeSpan? RetryIn { get; } = retryIn;

    /// <summary>Why the connection failed or ended; a <see cref="LiveTokenRefusedException"/> when the token was refused.</summary>
    public Exception? Error { get; } = error;
}
