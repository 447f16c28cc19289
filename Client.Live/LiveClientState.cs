namespace Notifications.Client.Live;

/// <summary>Where a <see cref="LiveClient"/> is, as <see cref="LiveClient.StateChanged"/> reports it.</summary>
public enum LiveClientState
{
    /// <summary>Asking the token provider for a token and opening the WebSocket.</summary>
    Connecting,

    /// <summary>Connected: the gateway sends the pending notifications, then live ones.</summary>
    Connected,

    /// <summary>The connection failed or dropped; the client tries again after <see cref="LiveStateChangedEventArgs.RetryIn"/>.</summary>
    Disconnected,

    /// <summary>
    /// The gateway refused the token (401, before the upgrade): expired, wrongly signed, or for another audience. The
    /// client backs off and asks the token provider again; <see cref="LiveStateChangedEventArgs.Error"/> is a
    /// <see cref="LiveTokenRefusedException"/> with the gateway's reason.
    /// </summary>
    Refused,

    /// <summary>Stopped: the enumeration ended or the client was disposed.</summary>
    Closed,
}
