using System.Net;
using System.Net.Sockets;

namespace Notifications.Harness.Live;

/// <summary>
/// The HTTP handler the clients' WebSockets connect through: each TCP connection's local address is the next of 127.0.0.2 …
/// 127.0.0.251 in turn. A connection is named by its four-tuple, so with one local address the clients of one gateway could
/// not outnumber the ephemeral ports (net.ipv4.ip_local_port_range: 28,232 here); with 250 they can.
/// </summary>
internal static class LoopbackConnector
{
    private const int LocalAddresses = 250;
    // IP_BIND_ADDRESS_NO_PORT (linux/in.h): bind the address now, choose the port at connect, for that destination only.
    private const int IpLevel = 0;
    private const int IpBindAddressNoPort = 24;
    private static int _next;

    public static HttpMessageInvoker Create() => new(new SocketsHttpHandler
    {
        ConnectCallback = ConnectAsync,
        PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
    });

    private static async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken cancellationToken)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            socket.SetRawSocketOption(IpLevel, IpBindAddressNoPort, BitConverter.GetBytes(1));
            int n = (int)((uint)Interlocked.Increment(ref _next) % LocalAddresses);
            socket.Bind(new IPEndPoint(new IPAddress([127, 0, 0, (byte)(2 + n)]), 0));
            await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
