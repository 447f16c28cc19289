using System.Net;

namespace Notifications.Shared.Contract;

/// <summary>
/// The address ranges a webhook may not reach unless the admin allowed it for that endpoint (server-side request forgery):
/// loopback, link-local (cloud metadata at 169.254.169.254), private (RFC 1918), unique local (fc00::/7), carrier-grade NAT
/// (100.64.0.0/10), unspecified, multicast and broadcast. An IPv4-mapped IPv6 address is judged as its IPv4 address.
/// </summary>
public static class PrivateAddresses
{
    private static readonly (IPNetwork Network, string Name)[] Ranges =
    [
        (IPNetwork.Parse("0.0.0.0/8"), "unspecified"),
        (IPNetwork.Parse("127.0.0.0/8"), "loopback"),
        (IPNetwork.Parse("169.254.0.0/16"), "link-local"),
        (IPNetwork.Parse("10.0.0.0/8"), "private (RFC 1918)"),
        (IPNetwork.Parse("172.16.0.0/12"), "private (RFC 1918)"),
        (IPNetwork.Parse("192.168.0.0/16"), "private (RFC 1918)"),
        (IPNetwork.Parse("100.64.0.0/10"), "carrier-grade NAT (RFC 6598)"),
        (IPNetwork.Parse("224.0.0.0/4"), "multicast"),
        (IPNetwork.Parse("255.255.255.255/32"), "broadcast"),
        (IPNetwork.Parse("::/128"), "unspecified"),
        (IPNetwork.Parse("::1/128"), "loopback"),
        (IPNetwork.Parse("fe80::/10"), "link-local"),
        (IPNetwork.Parse("fc00::/7"), "unique local (RFC 4193)"),
        (IPNetwork.Parse("ff00::/8"), "multicast"),
    ];

    /// <summary>The range <paramref name="address"/> is in (loopback, link-local, private, ...), or null for a public address.</summary>
    public static string? RangeOf(IPAddress address)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (address.IsIPv4MappedToIPv6)
        {
            address = address.MapToIPv4();
        }

        foreach (var (network, name) in Ranges)
        {
            if (network.Contains(address))
            {
                return name;
            }
        }

        return null;
    }

    /// <summary>Whether <paramref name="address"/> is a loopback address (127.0.0.0/8, ::1).</summary>
    public static bool IsLoopback(IPAddress address) => IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);
}
