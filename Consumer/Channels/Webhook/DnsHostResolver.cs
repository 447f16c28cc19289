using System.Net;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>The system's resolver (<see cref="Dns.GetHostAddressesAsync(string, CancellationToken)"/>).</summary>
internal sealed class DnsHostResolver : IWebhookHostResolver
{
    public Task<IPAddress[]> ResolveAsync(string host, CancellationToken cancellationToken) => Dns.GetHostAddressesAsync(host, cancellationToken);
}
