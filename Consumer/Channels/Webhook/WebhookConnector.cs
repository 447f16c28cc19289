using System.Net;
using System.Net.Sockets;
using Notifications.Consumer.Channels.Http;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The connect step of the webhook clients (<see cref="SocketsHttpHandler.ConnectCallback"/>): resolves the host, refuses
/// before any packet is sent when an address is loopback, link-local, private or otherwise not public
/// (<see cref="PrivateAddresses"/>; unless the client is the one for endpoints with <c>allow_private</c>), and connects to the
/// very addresses it checked, so a DNS answer that changes between a check and the connection (rebinding) cannot slip past it.
/// </summary>
internal static class WebhookConnector
{
    public static SocketsHttpHandler Handler(bool allowPrivate, WebhookOptions options, IWebhookHostResolver resolver) =>
        new()
        {
            ConnectCallback = (context, cancellationToken) => ConnectAsync(context.DnsEndPoint, allowPrivate, resolver, cancellationToken),
            // No proxy, not even one HTTPS_PROXY names: through a proxy the connect step would see (and check) the proxy's
            // address, and the proxy would connect to wherever the endpoint's host points.
            UseProxy = false,
            PooledConnectionLifetime = options.ConnectionLifetime,
            EnableMultipleHttp2Connections = true,
            // A redirect would go to a host nobody registered: a 3xx is an answer, not followed.
            AllowAutoRedirect = false,
            UseCookies = false,
            ConnectTimeout = options.Timeout,
            SslOptions = TrustedCertificates.ClientOptions(options.TrustedCertificatesFile, "Webhooks:TrustedCertificatesFile"),
        };

    public static async ValueTask<Stream> ConnectAsync(
        DnsEndPoint endpoint, bool allowPrivate, IWebhookHostResolver resolver, CancellationToken cancellationToken)
    {
        var addresses = IPAddress.TryParse(endpoint.Host, out var literal)
            ? [literal]
            : await resolver.ResolveAsync(endpoint.Host, cancellationToken);
        if (WebhookUrlRules.CheckAddresses(endpoint.Host, addresses, allowPrivate) is { } refused)
        {
            throw new PrivateAddressRefusedException(refused);
        }

        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(addresses, endpoint.Port, cancellationToken);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
