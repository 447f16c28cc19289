namespace Notifications.Gateway.Transports;

/// <summary>
/// How one client's connection carries the live channel (<see cref="LiveSession"/> is the same for all): WebSocket for browsers
/// (<see cref="WebSocketTransport"/>), a gRPC bidirectional stream for mobile apps (<see cref="GrpcTransport"/>). One send and
/// one receive may run at once; sends come from one writer.
/// </summary>
internal interface ILiveTransport
{
    /// <summary>Sends one notification (its frame: the JSON the consumer built).</summary>
    ValueTask SendAsync(LiveFrame frame, CancellationToken cancellationToken);

    /// <summary>The client's next message: an ack, the end of its side, or something else (malformed).</summary>
    ValueTask<LiveInput> ReceiveAsync(CancellationToken cancellationToken);

    /// <summary>Ends the connection from the gateway's side, after the last send, saying why (if it still can).</summary>
    Task CloseAsync(LiveClose close, CancellationToken cancellationToken);

    /// <summary>Whether <paramref name="exception"/> only says the client went away (or was cut off): its rows stay pending.</summary>
    bool IsGone(Exception exception);
}

/// <summary>What a client sent: <see cref="LiveInputKind.Ack"/> of <see cref="Id"/>, the end of its side, or a malformed message.</summary>
internal readonly record struct LiveInput(LiveInputKind Kind, long Id = 0)
{
    public static LiveInput End => new(LiveInputKind.End);

    public static LiveInput Malformed => new(LiveInputKind.Malformed);

    public static LiveInput Ack(long id) => new(LiveInputKind.Ack, id);
}

/// <summary>The kinds of <see cref="LiveInput"/>.</summary>
internal enum LiveInputKind
{
    Ack,
    End,
    Malformed,
}

/// <summary>Why the gateway ends a connection; each transport says it its way (a WebSocket close code, a gRPC status).</summary>
internal enum LiveClose
{
    /// <summary>The client ended its side.</summary>
    Normal,

    /// <summary>The client sent something that is not an ack.</summary>
    Malformed,

    /// <summary>The client did not read its notifications (<see cref="GatewayOptions.SendBuffer"/> waiting).</summary>
    NotReading,

    /// <summary>The gateway failed (its database): the client should reconnect.</summary>
    Failed,

    /// <summary>The gateway is stopping: the client should reconnect, to another node.</summary>
    Stopping,
}
