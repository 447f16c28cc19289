using System.Net;

namespace Notifications.Shared.Contract;

/// <summary>
/// The address ranges a webhook may not reach unless the admin allowed it for that endpoint (server-side request forgery):
/// loopback, link-local (cloud metadata at 169.254.169.254), private (RFC 1918), unique local (fc00::/7), carrier-grade NAT
/// (100.64.0.0/10), unspecified, multicast, broadcast, and the other special-purpose ranges of IANA's registries that no
/// receiver on the internet lives in (documentation, benchmarking, reserved, IETF protocol assignments, discard-only,
/// site-local, local-use NAT64). An IPv6 address that carries an IPv4 address — IPv4-mapped, IPv4-translated (SIIT),
/// IPv4-compatible, NAT64's well-known prefix (64:ff9b::/96), 6to4 (2002::/16) — is judged as the IPv4 address it carries:
/// 64:ff9b::7f00:1 is 127.0.0.1, while 64:ff9b::808:808 (how a DNS64 network reaches 8.8.8.8) is public.
/// </summary>
public static class PrivateAddresses
{
    private static readonly (IPNetwork Network, string Name)[] Ranges =
    [
        (IPNetwork.Parse("0.0.0.0/8"), "unspecified"),
        (IPNetwork.Parse("10.0.0.0/8"), "private (RFC 1918)"),
        (IPNetwork.Parse("100.64.0.0/10"), "carrier-grade NAT (RFC 6598)"),
        (IPNetwork.Parse("127.0.0.0/8"), "loopback"),
        (IPNetwork.Parse("169.254.0.0/16"), "link-local"),
        (IPNetwork.Parse("172.16.0.0/12"), "private (RFC 1918)"),
        (IPNetwork.Parse("192.0.0.0/24"), "IETF protocol assignments"),
        (IPNetwork.Parse("192.0.2.0/24"), "documentation"),
        (IPNetwork.Parse("192.88.99.0/24"), "6to4 relay anycast (deprecated)"),
        (IPNetwork.Parse("192.168.0.0/16"), "private (RFC 1918)"),
        (IPNetwork.Parse("198.18.0.0/15"), "benchmarking"),
        (IPNetwork.Parse("198.51.100.0/24"), "documentation"),
        (IPNetwork.Parse("203.0.113.0/24"), "documentation"),
        (IPNetwork.Parse("224.0.0.0/4"), "multicast"),
        (IPNetwork.Parse("255.255.255.255/32"), "broadcast"),
        (IPNetwork.Parse("240.0.0.0/4"), "reserved"),
        (IPNetwork.Parse("::/128"), "unspecified"),
        (IPNetwork.Parse("::1/128"), "loopback"),
        (IPNetwork.Parse("64:ff9b:1::/48"), "local-use NAT64 (RFC 8215)"),
        (IPNetwork.Parse("100::/64"), "discard-only"),
        (IPNetwork.Parse("2001::/23"), "IETF protocol assignments"),
        (IPNetwork.Parse("2001:db8::/32"), "documentation"),
        (IPNetwork.Parse("3fff::/20"), "documentation"),
        (IPNetwork.Parse("fc00::/7"), "unique local (RFC 4193)"),
        (IPNetwork.Parse("fe80::/10"), "link-local"),
        (IPNetwork.Parse("fec0::/10"), "site-local (deprecated)"),
        (IPNetwork.Parse("ff00::/8"), "multicast"),
    ];

    // IPv6 prefixes whose addresses carry an IPv4 address, and at which byte it starts.
    private static readonly (IPNetwork Network, string Name, int At)[] Carriers =
    [
        (IPNetwork.Parse("::ffff:0:0/96"), "IPv4-mapped", 12),
        (IPNetwork.Parse("::ffff:0:0:0/96"), "IPv4-translated", 12),
        (IPNetwork.Parse("::/96"), "IPv4-compatible", 12),
        (IPNetwork.Parse("64:ff9b::/96"), "NAT64", 12),
        (IPNetwork.Parse("2002::/16"), "6to4", 2),
    ];

    /// <summary>The range <paramref name="address"/> is in (loopback, link-local, private, ...), or null for a public address.</summary>
    public static string? RangeOf(IPAddress address)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (Named(address) is { } range)
        {
            return range;
        }

        if (Carried(address) is not { } found || Named(found.Carried) is not { } carriedRange)
        {
            return null;
        }

        // An IPv4-mapped address is the IPv4 address itself (a dual-stack socket's view of it); the others say how.
        return found.Carrier == "IPv4-mapped" ? carriedRange : $"{carriedRange} ({found.Carrier} form of {found.Carried})";
    }

    /// <summary>Whether <paramref name="address"/> is a loopback address (127.0.0.0/8, ::1).</summary>
    public static bool IsLoopback(IPAddress address) => IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);

    private static string? Named(IPAddress address)
    {
        foreach (var (network, name) in Ranges)
        {
            if (network.Contains(address))
            {
                return name;
            }
        }

        return null;
    }

    private static (IPAddress Carried, string Carrier)? Carried(IPAddress address)
    {
        foreach (var (network, name, at) in Carriers)
        {
            if (network.Contains(address))
            {
                return (new IPAddress(address.GetAddressBytes().AsSpan(at, 4)), name);
            }
        }

        return null;
    }
}
