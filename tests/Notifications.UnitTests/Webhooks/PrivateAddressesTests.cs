using System.Net;
using Notifications.Consumer.Channels.Webhook;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Webhooks;

/// <summary>The server-side request forgery guard: which addresses a webhook may not reach without allow_private.</summary>
public sealed class PrivateAddressesTests
{
    [Theory]
    [InlineData("127.0.0.1", "loopback")]
    [InlineData("127.8.9.10", "loopback")]
    [InlineData("::1", "loopback")]
    [InlineData("::ffff:127.0.0.1", "loopback")]
    [InlineData("169.254.169.254", "link-local")]
    [InlineData("fe80::1", "link-local")]
    [InlineData("10.1.2.3", "private (RFC 1918)")]
    [InlineData("172.16.0.1", "private (RFC 1918)")]
    [InlineData("172.31.255.255", "private (RFC 1918)")]
    [InlineData("192.168.1.1", "private (RFC 1918)")]
    [InlineData("::ffff:192.168.1.1", "private (RFC 1918)")]
    [InlineData("fd12:3456::1", "unique local (RFC 4193)")]
    [InlineData("100.64.0.1", "carrier-grade NAT (RFC 6598)")]
    [InlineData("100.127.255.254", "carrier-grade NAT (RFC 6598)")]
    [InlineData("0.0.0.0", "unspecified")]
    [InlineData("::", "unspecified")]
    [InlineData("224.0.0.1", "multicast")]
    public void RangeOf_NonPublicAddress_NamesItsRange(string address, string range) =>
        Assert.Equal(range, PrivateAddresses.RangeOf(IPAddress.Parse(address)));

    [Theory]
    [InlineData("93.184.216.34")]
    [InlineData("172.32.0.1")]
    [InlineData("100.128.0.1")]
    [InlineData("8.8.8.8")]
    [InlineData("2606:4700:4700::1111")]
    [InlineData("::ffff:8.8.8.8")]
    public void RangeOf_PublicAddress_Null(string address) => Assert.Null(PrivateAddresses.RangeOf(IPAddress.Parse(address)));

    [Fact]
    public void CheckAddresses_OnePrivateAmongPublic_Refused()
    {
        string? refused = WebhookUrlRules.CheckAddresses("hooks.example.com", [IPAddress.Parse("8.8.8.8"), IPAddress.Parse("10.0.0.5")], allowPrivate: false);

        Assert.Contains("resolves to 10.0.0.5, a private (RFC 1918) address", refused, StringComparison.Ordinal);
        Assert.Null(WebhookUrlRules.CheckAddresses("hooks.example.com", [IPAddress.Parse("10.0.0.5")], allowPrivate: true));
    }

    [Theory]
    [InlineData("127.0.0.1")]
    [InlineData("localhost")]
    public async Task ConnectAsync_LoopbackWithoutAllowPrivate_RefusedBeforeConnecting(string host)
    {
        var refused = await Assert.ThrowsAsync<PrivateAddressRefusedException>(
            async () => await WebhookConnector.ConnectAsync(new DnsEndPoint(host, 9), allowPrivate: false, CancellationToken.None));

        Assert.Contains("loopback address", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://hooks.example.com/in", false, null)]
    [InlineData("http://127.0.0.1:8080/in", true, null)]
    [InlineData("http://localhost:8080/in", true, null)]
    [InlineData("http://127.0.0.1:8080/in", false, "plain http")]
    [InlineData("http://hooks.example.com/in", true, "plain http")]
    [InlineData("ftp://hooks.example.com/in", false, "is not an absolute https URL")]
    [InlineData("/relative/path", false, "not an absolute")]
    [InlineData("https://user:pass@hooks.example.com/in", false, "user information")]
    public void Validate_Url_Expected(string url, bool allowPrivate, string? error)
    {
        string? reason = WebhookUrlRules.Validate(url, allowPrivate, out _);

        if (error is null)
        {
            Assert.Null(reason);
        }
        else
        {
            Assert.Contains(error, reason, StringComparison.Ordinal);
        }
    }
}
