using System.Net;
using Notifications.Consumer.Channels.Webhook;
using Notifications.IntegrationTests.Webhooks;
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

    // Other spellings of a non-public IPv4 address (translation and tunnel prefixes that carry it), and the special-purpose
    // ranges of IANA's registries that no webhook receiver lives in: each refused, naming what it is.
    [Theory]
    [InlineData("64:ff9b::7f00:1", "loopback")]             // NAT64 (RFC 6052) of 127.0.0.1
    [InlineData("64:ff9b::a9fe:a9fe", "link-local")]        // NAT64 of 169.254.169.254, the cloud metadata address
    [InlineData("64:ff9b::a00:5", "private (RFC 1918)")]    // NAT64 of 10.0.0.5
    [InlineData("64:ff9b:1::a00:5", "local-use NAT64")]     // RFC 8215: the operator's own translation prefix
    [InlineData("::7f00:1", "loopback")]                    // IPv4-compatible ::127.0.0.1 (deprecated)
    [InlineData("::ffff:0:a00:5", "private (RFC 1918)")]    // IPv4-translated (SIIT) 10.0.0.5
    [InlineData("::ffff:169.254.169.254", "link-local")]
    [InlineData("2002:7f00:1::1", "loopback")]              // 6to4 of 127.0.0.1
    [InlineData("2002:a9fe:a9fe::1", "link-local")]         // 6to4 of 169.254.169.254
    [InlineData("2001:0:4136:e378:8000:63bf:3fff:fdd2", "IETF protocol assignments")]   // Teredo
    [InlineData("0.1.2.3", "unspecified")]
    [InlineData("100.100.100.200", "carrier-grade NAT (RFC 6598)")]
    [InlineData("192.0.0.170", "IETF protocol assignments")]
    [InlineData("192.0.2.1", "documentation")]
    [InlineData("198.51.100.7", "documentation")]
    [InlineData("203.0.113.9", "documentation")]
    [InlineData("198.18.0.1", "benchmarking")]
    [InlineData("240.0.0.1", "reserved")]
    [InlineData("255.255.255.255", "broadcast")]
    [InlineData("100::1", "discard-only")]
    [InlineData("2001:db8::1", "documentation")]
    [InlineData("fec0::1", "site-local (deprecated)")]
    [InlineData("ff02::1", "multicast")]
    public void RangeOf_NonPublicInAnotherForm_Refused(string address, string range) =>
        Assert.Contains(range, PrivateAddresses.RangeOf(IPAddress.Parse(address)), StringComparison.Ordinal);

    [Theory]
    [InlineData("64:ff9b::808:808")]        // NAT64 of 8.8.8.8: how a DNS64 network reaches a public IPv4 host
    [InlineData("2002:808:808::1")]         // 6to4 of 8.8.8.8
    [InlineData("2a00:1450:4001:81c::200e")]
    public void RangeOf_PublicThroughATranslationPrefix_Null(string address) => Assert.Null(PrivateAddresses.RangeOf(IPAddress.Parse(address)));

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
            async () => await WebhookConnector.ConnectAsync(new DnsEndPoint(host, 9), allowPrivate: false, new DnsHostResolver(), CancellationToken.None));

        Assert.Contains("loopback address", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("10.0.0.5", "a private (RFC 1918) address")]
    [InlineData("169.254.169.254", "a link-local address")]
    [InlineData("64:ff9b::a9fe:a9fe", "a link-local (NAT64 form of 169.254.169.254) address")]
    [InlineData("::ffff:192.168.1.1", "a private (RFC 1918) address")]
    [InlineData("100.64.0.1", "a carrier-grade NAT (RFC 6598) address")]
    public async Task ConnectAsync_NameResolvingToANonPublicAddress_RefusedNamingTheHostAndTheAddress(string address, string range)
    {
        var resolver = new FixedHostResolver(new Dictionary<string, IPAddress[]> { ["hooks.partner.test"] = [IPAddress.Parse("93.184.216.34"), IPAddress.Parse(address)] });

        var refused = await Assert.ThrowsAsync<PrivateAddressRefusedException>(
            async () => await WebhookConnector.ConnectAsync(new DnsEndPoint("hooks.partner.test", 443), allowPrivate: false, resolver, CancellationToken.None));

        Assert.Contains($"webhook host 'hooks.partner.test' resolves to {IPAddress.Parse(address)}, {range}", refused.Message, StringComparison.Ordinal);
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
