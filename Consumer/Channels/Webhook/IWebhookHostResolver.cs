using System.Net;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// Where an endpoint's host resolves to, asked by <see cref="WebhookConnector"/> at every connection: the system's DNS
/// (<see cref="DnsHostResolver"/>). The seam lets a test give a name the addresses it needs (a private range, NAT64).
/// </summary>
internal interface IWebhookHostResolver
{
    Task<IPAddress[]> ResolveAsync(string host, CancellationToken cancellationToken);
}
