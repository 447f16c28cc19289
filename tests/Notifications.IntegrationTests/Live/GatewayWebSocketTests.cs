using System.Net;
using System.Net.WebSockets;
using Dapper;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// The gateway's first slice (issue 30): a real WebSocket client with a token signed as a business app signs it gets
/// its subscriber's pending notifications in id order (none expired, none another's), acks them by id over the same
/// connection, and on reconnect gets only what it did not ack; a missing or foreign-signed token is refused before the
/// upgrade (401 with the reason); a frame that is not an ack closes that connection (1008), not the gateway.
/// </summary>
[Collection("services")]
public sealed class GatewayWebSocketTests
{
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task Client_GetsPendingInOrder_AcksById_ReconnectGetsOnlyTheUnacked()
    {
        string key = NewKey();
        await SeedAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        var live = LiveUri(gateway, Token("ana", key));

        using (var first = new ClientWebSocket())
        {
            await first.ConnectAsync(live, CancellationToken.None);
            var frames = new[] { await ReceiveAsync(first), await ReceiveAsync(first), await ReceiveAsync(first) };
            Assert.Equal(
                [("notification", "101", "First"), ("notification", "102", "Second"), ("notification", "103", "Third")],
                frames.Select(f => (f.GetProperty("type").GetString(), f.GetProperty("id").GetString(), f.GetProperty("subject").GetString())));
            Assert.Equal("42", frames[1].GetProperty("data").GetProperty("order").GetString());
            await SendAsync(first, """{"type":"ack","id":"101"}""");
            await SendAsync(first, """{"type":"ack","id":"102"}""");
            await SendAsync(first, """{"type":"ack","id":"201"}""");   // Bo's: not Ana's to ack
            await Eventually.WaitAsync(PendingAsync, p => !p.Contains(101) && !p.Contains(102), Patience, "Ana's acks recorded");
            await first.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        }

        Assert.Equal([100L, 103L, 201L], await PendingAsync());
        using var again = new ClientWebSocket();
        await again.ConnectAsync(live, CancellationToken.None);
        Assert.Equal("103", (await ReceiveAsync(again)).GetProperty("id").GetString());
        await SendAsync(again, """{"type":"ack","id":"103"}""");
        await Eventually.WaitAsync(PendingAsync, p => !p.Contains(103), Patience, "the last ack recorded");
        await again.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
    }

    [Fact]
    public async Task NoTokenOrAnotherKeysToken_RefusedBeforeTheUpgrade_MalformedFrameClosesOnlyThatConnection()
    {
        string key = NewKey();
        await SeedAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        var address = gateway.Get<LiveServer>().Address!;
        using var http = new HttpClient();

        var none = await http.GetAsync(new Uri(address, LiveServer.Path));
        var foreign = await http.GetAsync(LiveUri(gateway, Token("ana", NewKey())));

        Assert.Equal((HttpStatusCode.Unauthorized, "no token: pass ?access_token=<jwt>\n"), (none.StatusCode, await none.Content.ReadAsStringAsync()));
        Assert.Equal((HttpStatusCode.Unauthorized, "the token's signature is not valid\n"), (foreign.StatusCode, await foreign.Content.ReadAsStringAsync()));
        using var refused = new ClientWebSocket();
        await Assert.ThrowsAsync<WebSocketException>(() => refused.ConnectAsync(LiveUri(gateway, "not-a-jwt"), CancellationToken.None));

        using var bad = new ClientWebSocket();
        await bad.ConnectAsync(LiveUri(gateway, Token("bo", key)), CancellationToken.None);
        Assert.Equal("201", (await ReceiveAsync(bad)).GetProperty("id").GetString());
        await SendAsync(bad, "{not json");
        var buffer = new byte[256];
        var closing = await bad.ReceiveAsync(buffer, CancellationToken.None);
        Assert.Equal((WebSocketMessageType.Close, WebSocketCloseStatus.PolicyViolation), (closing.MessageType, bad.CloseStatus));

        // The gateway goes on: the next connection gets Bo's notification again (it was not acked).
        using var next = new ClientWebSocket();
        await next.ConnectAsync(LiveUri(gateway, Token("bo", key)), CancellationToken.None);
        Assert.Equal("201", (await ReceiveAsync(next)).GetProperty("id").GetString());
        await next.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
    }

    [Fact]
    public async Task AckTheDatabaseRefuses_ConnectionClosed1011_TheRowStaysPending_TheGatewayGoesOn()
    {
        string key = NewKey();
        await SeedAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var owner = await TestDatabase.OpenAsync();
        using var ana = await ConnectAsync(gateway, "ana", key);
        Assert.Equal("101", await ReceiveIdAsync(ana));
        await owner.ExecuteAsync($"REVOKE DELETE ON {S}.live_pending FROM notifications_gateway");
        try
        {
            await AckAsync(ana, "101");
            var buffer = new byte[256];
            WebSocketReceiveResult closing;
            do
            {
                closing = await ana.ReceiveAsync(buffer, CancellationToken.None);
            }
            while (closing.MessageType != WebSocketMessageType.Close);

            Assert.Equal(WebSocketCloseStatus.InternalServerError, ana.CloseStatus);
        }
        finally
        {
            await owner.ExecuteAsync($"GRANT DELETE ON {S}.live_pending TO notifications_gateway");
        }

        Assert.Contains(101L, await PendingAsync());
        using var again = await ConnectAsync(gateway, "ana", key);
        Assert.Equal("101", await ReceiveIdAsync(again));
    }

    // Ana: 100 expired, 101-103 pending (102 with data); Bo: 201.
    private static async Task SeedAsync()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($$"""
            DELETE FROM {{S}}.live_pending;
            INSERT INTO {{S}}.live_pending (notification_id, subscriber_id, subject, body, data, expires_at) VALUES
                (100, 'ana', 'Gone', 'expired', NULL, now() - interval '1 minute'),
                (103, 'ana', 'Third', 'c', NULL, NULL),
                (101, 'ana', 'First', 'a', NULL, now() + interval '1 hour'),
                (102, 'ana', 'Second', 'b', '{"order":"42"}', NULL),
                (201, 'bo', 'Bo''s', 'd', NULL, NULL)
            """);
    }

    private static async Task<List<long>> PendingAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending ORDER BY notification_id")).AsList();
    }
}
