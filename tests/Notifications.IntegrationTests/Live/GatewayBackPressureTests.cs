using System.Globalization;
using System.Net.Sockets;
using System.Net.WebSockets;
using Dapper;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using RabbitMQ.Client;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// Issue 30's bad input "a client that stops reading": the gateway holds at most <c>Gateway:SendBuffer</c> frames for a
/// connection that does not read, then closes it with the reason (logged 7512) and cuts it off; its notifications stay pending
/// and reach it when it connects again and reads; the gateway goes on serving the others meanwhile.
/// </summary>
[Collection("services")]
public sealed class GatewayBackPressureTests
{
    private const int Backlog = 3_000;
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task AClientThatStopsReading_ClosedOnceItsBufferIsFull_ItsRowsStayPending_OthersServed()
    {
        string key = NewKey();
        await TestDatabase.CleanAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            // 3,000 rows of 4 KB for Ana: 12 MB, more than the kernel's and Kestrel's buffers hold, so the replay blocks.
            await connection.ExecuteAsync($"""
                INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body)
                SELECT n, 'ana', 'Backlog ' || n, repeat('x', 4000) FROM generate_series(1, {Backlog + 5}) AS n;
                INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body) VALUES (9001, 'bo', 'For Bo', 'b');
                """);
        }

        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key), ("Gateway:SendBuffer", "4"));
        var presence = gateway.Get<Presence>();
        using var stalled = await ConnectNotReadingAsync(LiveUri(gateway, Token("ana", key)));
        await Eventually.WaitAsync(() => Task.FromResult(presence.Connections), n => n == 1, Patience, "Ana's connection joined (bound)");

        // Five notifications routed to her while her replay is stuck: one more than the buffer holds.
        await RouteAsync(broker, "ana", Enumerable.Range(Backlog + 1, 5).Select(n => (long)n));

        await gateway.WaitForLogAsync(7512, Patience);
        await Eventually.WaitAsync(() => Task.FromResult(presence.Connections), n => n == 0, Patience, "the stalled connection cut off");
        await using (var connection = await TestDatabase.OpenAsync())
        {
            Assert.Equal(Backlog + 6, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {S}.live_pending"));
        }

        using var bo = await ConnectAsync(gateway, "bo", key);
        Assert.Equal("9001", await ReceiveIdAsync(bo));
        using var ana = await ConnectAsync(gateway, "ana", key);
        Assert.Equal("1", await ReceiveIdAsync(ana));
    }

    // A client whose socket takes 8 KB at a time and which never calls ReceiveAsync: as an app that hangs.
    private static async Task<ClientWebSocket> ConnectNotReadingAsync(Uri uri)
    {
        var handler = new SocketsHttpHandler
        {
            ConnectCallback = async (context, ct) =>
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 8192, NoDelay = true };
                await socket.ConnectAsync(context.DnsEndPoint, ct);
                return new NetworkStream(socket, ownsSocket: true);
            },
        };
        var client = new ClientWebSocket();
        await client.ConnectAsync(uri, new HttpMessageInvoker(handler), CancellationToken.None);
        return client;
    }

    // As the consumer's live channel publishes them (OutboundPublisher.PublishLiveAsync): to the live exchange, the subscriber as key.
    private static async Task RouteAsync(TestBroker broker, string subscriber, IEnumerable<long> ids)
    {
        var factory = new ConnectionFactory { Uri = broker.Options.Uri };
        await using var connection = await factory.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync();
        foreach (long id in ids)
        {
            var properties = new BasicProperties
            {
                MessageId = id.ToString(CultureInfo.InvariantCulture), ContentType = "application/json",
                Headers = new Dictionary<string, object?> { [LiveFrames.AtMostOnceHeader] = false },
            };
            await channel.BasicPublishAsync(broker.Options.LiveExchange, subscriber, mandatory: false, properties, LiveFrames.Notification(id, $"Routed {id}", "r", null));
        }
    }
}
