using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Forwards connections on a loopback port to a target, one at a time, and records each read of what the
/// client sent: shows how a client groups its writes (e.g. SMTP pipelining) at the server's side.
/// </summary>
internal sealed class RecordingTcpProxy : IAsyncDisposable
{
    private readonly TcpListener listener;
    private readonly ConcurrentQueue<string> clientReads = new();
    private readonly CancellationTokenSource stop = new();
    private readonly string targetHost;
    private readonly int targetPort;
    private Task? forwarding;

    private RecordingTcpProxy(string targetHost, int targetPort, int listenPort)
    {
        listener = new TcpListener(IPAddress.Loopback, listenPort);
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    public int Port => ((IPEndPoint)listener.LocalEndpoint).Port;

    /// <summary>What the client sent, one entry per read at the proxy, as ASCII.</summary>
    public IReadOnlyList<string> ClientReads => clientReads.ToArray();

    /// <summary>Listens on <paramref name="listenPort"/> (0: any free port) and forwards to the target.</summary>
    public static RecordingTcpProxy Start(string targetHost, int targetPort, int listenPort = 0)
    {
        var proxy = new RecordingTcpProxy(targetHost, targetPort, listenPort);
        proxy.listener.Start();
        proxy.forwarding = proxy.ForwardAsync(proxy.stop.Token);
        return proxy;
    }

    public async ValueTask DisposeAsync()
    {
        await stop.CancelAsync();
        listener.Stop();
        if (forwarding is not null)
        {
            await forwarding;
        }

        stop.Dispose();
    }

    private async Task ForwardAsync(CancellationToken ct)
    {
        try
        {
            while (true)
            {
                using TcpClient client = await listener.AcceptTcpClientAsync(ct);
                using var server = new TcpClient();
                await server.ConnectAsync(targetHost, targetPort, ct);
                await Task.WhenAll(
                    PumpAsync(client.Client, server.Client, record: true, ct),
                    PumpAsync(server.Client, client.Client, record: false, ct));
            }
        }
        catch (Exception) when (ct.IsCancellationRequested)
        {
            // Disposed: whatever the stopped listener or a closed connection threw is expected.
        }
    }

    private async Task PumpAsync(Socket from, Socket to, bool record, CancellationToken ct)
    {
        byte[] buffer = new byte[64 * 1024];
        try
        {
            int read;
            while ((read = await from.ReceiveAsync(buffer, ct)) > 0)
            {
                if (record)
                {
                    clientReads.Enqueue(Encoding.ASCII.GetString(buffer, 0, read));
                }

                await to.SendAsync(buffer.AsMemory(0, read), ct);
            }

            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // One side reset the connection: end the other side too.
            to.Close();
        }
    }
}
