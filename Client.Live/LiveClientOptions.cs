using System.Net.WebSockets;

namespace Notifications.Client.Live;

/// <summary>Where a <see cref="LiveClient"/> connects, how it gets its tokens, and how it reconnects.</summary>
public sealed class LiveClientOptions
{
    /// <summary>The gateway's live endpoint, e.g. <c>wss://live.example.com/live</c>; the client adds <c>?access_token=</c>.</summary>
    public required Uri Uri { get; init; }

    /// <summary>
    /// Gets a fresh token, once per connection attempt: tokens are short-lived, so one minted for the first connect may have
    /// expired by a reconnect an hour later. Typically a call to the app's own backend, which mints it with
    /// <see cref="LiveTokens.Mint"/> for its signed-in user.
    /// </summary>
    public required Func<CancellationToken, ValueTask<string>> TokenProvider { get; init; }

    /// <summary>
    /// Ack each notification when the loop body that took it from <see cref="LiveClient.ReadAllAsync"/> has finished (when
    /// the next one is asked for). Off: the app calls <see cref="LiveClient.AckAsync"/> when it has shown or stored it.
    /// </summary>
    public bool AutoAck { get; init; }

    /// <summary>The back-off's base: the first reconnect waits a random time up to this, each failure doubles it up to <see cref="MaxReconnectDelay"/>.</summary>
    public TimeSpan MinReconnectDelay { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>The back-off's cap: no pause between attempts is longer (full jitter: each is random, from zero to the cap of its attempt).</summary>
    public TimeSpan MaxReconnectDelay { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How long opening the WebSocket may take before the attempt counts as failed.</summary>
    public TimeSpan ConnectTimeout { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// How many recent notification ids the client remembers to show each once (a replayed copy after a reconnect, a live
    /// copy after a push copy the app acked); the oldest are forgotten first.
    /// </summary>
    public int RecentIdCapacity { get; init; } = 10_000;

    /// <summary>Changes the WebSocket's options before each connect: client certificates, a proxy, a certificate check.</summary>
    public Action<ClientWebSocketOptions>? ConfigureSocket { get; init; }

    internal void Validate()
    {
        ArgumentNullException.ThrowIfNull(Uri);
        ArgumentNullException.ThrowIfNull(TokenProvider);
        if (Uri.Scheme is not ("ws" or "wss"))
        {
            throw new ArgumentException("The gateway's URI must be ws:// or wss://.", nameof(Uri));
        }

        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(MinReconnectDelay, TimeSpan.Zero, nameof(MinReconnectDelay));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxReconnectDelay, MinReconnectDelay, nameof(MaxReconnectDelay));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ConnectTimeout, TimeSpan.Zero, nameof(ConnectTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThan(RecentIdCapacity, 1, nameof(RecentIdCapacity));
    }
}
