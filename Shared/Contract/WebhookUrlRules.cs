using System.Net;

namespace Notifications.Shared.Contract;

/// <summary>
/// What a webhook endpoint's URL must be: absolute https with a host, no user information; plain http only for a loopback
/// host (tests, a sidecar) on an endpoint whose private addresses the admin allowed. Where the host resolves to is checked
/// when the endpoint is added and again at every connection (<see cref="PrivateAddresses"/>).
/// </summary>
public static class WebhookUrlRules
{
    /// <summary>A URL's length limit (the column's).</summary>
    public const int MaxUrlLength = 2000;

    /// <summary>
    /// Null when <paramref name="url"/> may be an endpoint's URL; otherwise why not. The reason shows the URL redacted
    /// (<see cref="WebhookUrlRedaction.Redact"/>): it may be logged or stored with a dead letter, and the URL may hold a token.
    /// </summary>
    public static string? Validate(string? url, bool allowPrivate, out Uri? uri)
    {
        uri = null;
        if (string.IsNullOrWhiteSpace(url) || url.Length > MaxUrlLength || !Uri.TryCreate(url, UriKind.Absolute, out var parsed))
        {
            return $"webhook URL ({url?.Length ?? 0} characters) is not an absolute URL of at most {MaxUrlLength} characters";
        }

        string shown = WebhookUrlRedaction.Redact(parsed);
        if (parsed.Scheme != Uri.UriSchemeHttps && parsed.Scheme != Uri.UriSchemeHttp)
        {
            return $"webhook URL {shown} is not an absolute https URL";
        }

        if (parsed.Scheme == Uri.UriSchemeHttp && !(allowPrivate && IsLoopbackHost(parsed)))
        {
            return $"webhook URL {shown} is plain http: only https, or http to a loopback host with --allow-private";
        }

        if (parsed.UserInfo.Length > 0 || parsed.Fragment.Length > 0)
        {
            return $"webhook URL {shown} has user information or a fragment; the secret signs, credentials do not go in the URL";
        }

        uri = parsed;
        return null;
    }

    /// <summary>
    /// Null when every address <paramref name="host"/> resolved to may be reached; otherwise why not (the first private one).
    /// </summary>
    public static string? CheckAddresses(string host, IEnumerable<IPAddress> addresses, bool allowPrivate)
    {
        ArgumentNullException.ThrowIfNull(addresses);
        if (allowPrivate)
        {
            return null;
        }

        foreach (var address in addresses)
        {
            if (PrivateAddresses.RangeOf(address) is { } range)
            {
                return $"webhook host '{host}' resolves to {address}, a {range} address: refused against server-side request forgery "
                    + "(scripts/admin webhooks add --allow-private allows it for one endpoint)";
            }
        }

        return null;
    }

    private static bool IsLoopbackHost(Uri uri) =>
        uri.IsLoopback || (IPAddress.TryParse(uri.IdnHost, out var address) && PrivateAddresses.IsLoopback(address));
}
