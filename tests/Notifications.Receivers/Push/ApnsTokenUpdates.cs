namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Apple's limit on provider-token updates: a connection uses one token for its key, changed at most once every
/// <see cref="MinInterval"/>; a different (valid) token sooner is answered 429 <c>TooManyProviderTokenUpdates</c> and does
/// not replace the one in use. Apple counts per connection (clients report it so, and a fleet of servers sharing one key
/// each sign their own), so this does too: each consumer process has its own connections. Thread-safe.
/// </summary>
internal sealed class ApnsTokenUpdates
{
    public static readonly TimeSpan MinInterval = TimeSpan.FromMinutes(20);

    private readonly Lock gate = new();
    private readonly Dictionary<string, (string Token, DateTimeOffset Since)> byConnection = new(StringComparer.Ordinal);

    /// <summary>True if <paramref name="token"/> may be used on <paramref name="connectionId"/> at <paramref name="now"/>.</summary>
    public bool TryUse(string connectionId, string token, DateTimeOffset now)
    {
        lock (gate)
        {
            if (byConnection.TryGetValue(connectionId, out var current) && current.Token != token && now - current.Since < MinInterval)
            {
                return false;
            }

            if (current.Token != token)
            {
                byConnection[connectionId] = (token, now);
            }

            return true;
        }
    }
}
