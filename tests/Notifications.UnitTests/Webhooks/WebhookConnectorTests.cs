using System.Net;
using System.Net.Sockets;
using Notifications.Consumer.Channels.Webhook;

namespace Notifications.UnitTests.Webhooks;

/// <summary>
/// The webhook clients' handler: every connection goes straight to the endpoint's host through the address check, whatever
/// proxy the environment names (<c>HTTPS_PROXY</c> becomes <see cref="HttpClient.DefaultProxy"/>), and no redirect is followed.
/// </summary>
public sealed class WebhookConnectorTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Handler_EitherKind_NoProxyNoRedirects(bool allowPrivate)
    {
        using var handler = WebhookConnector.Handler(allowPrivate, new WebhookOptions(), new DnsHostResolver());

        Assert.False(handler.UseProxy);
        Assert.False(handler.AllowAutoRedirect);
    }

    [Fact]
    public async Task SendAsync_AProxyConfigured_TheEndpointsOwnAddressIsCheckedAndTheProxyNeverReached()
    {
        using var proxy = new TcpListener(IPAddress.Loopback, 0);
        proxy.Start();
        var handler = WebhookConnector.Handler(allowPrivate: false, new WebhookOptions(), new DnsHostResolver());
        // What HTTPS_PROXY would give it: with the proxy used, the connect step would see (and check) the proxy's address,
        // and the proxy, not this process, would connect to wherever the URL points.
        handler.Proxy = new EveryRequestProxy(new Uri($"http://127.0.0.1:{((IPEndPoint)proxy.LocalEndpoint).Port}/"));
        using var client = new HttpClient(handler);

        var failed = await Assert.ThrowsAsync<HttpRequestException>(() => client.PostAsync("http://10.0.0.5:8080/hooks", new StringContent("{}")));

        var refused = Assert.IsType<PrivateAddressRefusedException>(failed.InnerException);
        Assert.Contains("webhook host '10.0.0.5' resolves to 10.0.0.5", refused.Message, StringComparison.Ordinal);
        Assert.False(proxy.Pending(), "a connection reached the proxy");
    }

    private sealed class EveryRequestProxy(Uri proxy) : IWebProxy
    {
        public ICredentials? Credentials { get; set; }

        public Uri GetProxy(Uri destination) => proxy;

        public bool IsBypassed(Uri host) => false;
    }
}
