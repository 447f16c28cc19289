using Notifications.Consumer.Relay;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// What carries one provider's requests, shared by every handler: its HTTP/2 client, its breaker (ungated: while open its
/// messages are parked and the other provider's go on), its base URL's host (the key of its fleet rate limit in
/// <c>RateLimits:Domains</c>) and its Retry-After pause.
/// </summary>
internal sealed record ProviderLink(HttpClient Client, RelayBreaker Breaker, string Host, ProviderPause Pause)
{
    public static ProviderLink For(Uri baseUrl, HttpClient client, RelayBreaker breaker, TimeProvider time) =>
        new(client, breaker, baseUrl.IdnHost.ToLowerInvariant(), new ProviderPause(time));
}
