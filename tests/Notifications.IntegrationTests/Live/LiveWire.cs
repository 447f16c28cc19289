using System.Net.WebSockets;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Live;

/// <summary>What the live tests' clients do on the wire: a token signed as a business app signs it, the gateway's URI, frames.</summary>
internal static class LiveWire
{
    public static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public static string NewKey() => Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));

    // As a business app's server mints one for its user (the client package's LiveTokens), 5 minutes.
    public static string Token(string subscriber, string key) => Notifications.Client.Live.LiveTokens.Mint(key, subscriber, TimeSpan.FromMinutes(5));

    public static Uri LiveUri(WorkerHost gateway, string token)
    {
        var http = gateway.Get<LiveServer>().Address!;
        return new UriBuilder(http) { Scheme = "ws", Path = LiveServer.Path, Query = "access_token=" + Uri.EscapeDataString(token) }.Uri;
    }

    /// <summary>A client of <paramref name="subscriber"/> connected to <paramref name="gateway"/>.</summary>
    public static async Task<ClientWebSocket> ConnectAsync(WorkerHost gateway, string subscriber, string key)
    {
        var socket = new ClientWebSocket();
        await socket.ConnectAsync(LiveUri(gateway, Token(subscriber, key)), CancellationToken.None);
        return socket;
    }

    public static Task SendAsync(ClientWebSocket socket, string text) =>
        socket.SendAsync(Encoding.UTF8.GetBytes(text), WebSocketMessageType.Text, endOfMessage: true, CancellationToken.None);

    public static Task AckAsync(ClientWebSocket socket, string id) => SendAsync(socket, $$"""{"type":"ack","id":"{{id}}"}""");

    /// <summary>The next frame, within <paramref name="within"/> (else <see cref="Patience"/>); throws when none comes.</summary>
    public static async Task<JsonElement> ReceiveAsync(ClientWebSocket socket, TimeSpan? within = null)
    {
        using var timeout = new CancellationTokenSource(within ?? Patience);
        var buffer = new byte[8192];
        int count = 0;
        while (true)
        {
            var result = await socket.ReceiveAsync(buffer.AsMemory(count), timeout.Token);
            count += result.Count;
            if (result.EndOfMessage)
            {
                return JsonDocument.Parse(buffer.AsMemory(0, count)).RootElement.Clone();
            }
        }
    }

    /// <summary>The id of the next frame, which must be a notification.</summary>
    public static async Task<string> ReceiveIdAsync(ClientWebSocket socket)
    {
        var frame = await ReceiveAsync(socket);
        Assert.Equal("notification", frame.GetProperty("type").GetString());
        return frame.GetProperty("id").GetString()!;
    }
}
