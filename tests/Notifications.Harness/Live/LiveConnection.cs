using System.Net.WebSockets;

namespace Notifications.Harness.Live;

/// <summary>
/// One client of a run: its subscriber, the gateway it connects to and, while connected, its socket and the loop reading it.
/// A storm drops it (<see cref="DropAsync"/>) and connects it again; each connection has its own token, cancelled before the
/// socket is aborted, so the reader tells the run's own drop from the gateway's.
/// </summary>
internal sealed class LiveConnection(string subscriber, Uri gateway)
{
    private ClientWebSocket? _socket;
    private CancellationTokenSource? _dropped;
    private Task _loop = Task.CompletedTask;

    public string Subscriber => subscriber;

    public Uri Gateway => gateway;

    /// <summary>Starts reading <paramref name="socket"/>, just connected, until the run ends (<paramref name="stop"/>) or drops it.</summary>
    public void Attach(ClientWebSocket socket, Func<ClientWebSocket, CancellationToken, Task> read, CancellationToken stop)
    {
        _dropped = CancellationTokenSource.CreateLinkedTokenSource(stop);
        _socket = socket;
        _loop = read(socket, _dropped.Token);
    }

    /// <summary>
    /// Aborts the socket: no close frame, the kernel closes the TCP connection (as when an app is killed or its network
    /// drops and the gateway hears of it); the gateway keeps the notifications pending. Then waits for the reader to end.
    /// </summary>
    public async Task DropAsync()
    {
        if (_socket is not { } socket)
        {
            return;
        }

        _socket = null;
        await _dropped!.CancelAsync();
        socket.Abort();
        await _loop;
        socket.Dispose();
        _dropped.Dispose();
    }
}
