using System.Net;
using System.Net.Sockets;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>A free TCP port on 127.0.0.1: bound as port 0 and let go, so another process may take it before it is used.</summary>
internal static class LoopbackPort
{
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
