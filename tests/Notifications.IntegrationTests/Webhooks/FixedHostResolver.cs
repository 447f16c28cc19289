using System.Net;
using Notifications.Consumer.Channels.Webhook;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>A resolver that knows the test's names (a hosts file of its own); any other name goes to the system's DNS.</summary>
internal sealed class FixedHostResolver(IReadOnlyDictionary<string, IPAddress[]> names) : IWebhookHostResolver
{
    public Task<IPAddress[]> ResolveAsync(string host, CancellationToken cancellationToken) =>
        names.TryGetValue(host, out var addresses) ? Task.FromResult(addresses) : Dns.GetHostAddressesAsync(host, cancellationToken);
}
