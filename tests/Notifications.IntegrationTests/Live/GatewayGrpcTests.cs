using Dapper;
using Grpc.Core;
using Grpc.Net.Client;
using Notifications.Client;
using Notifications.Gateway;
using Notifications.Gateway.Transports.Grpc;
using LiveGrpc = Notifications.Gateway.Transports.Grpc.Live;
using Notifications.IntegrationTests.Infrastructure;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// The gateway's gRPC transport (issue 30; Gateway/Transports/live.proto), as a mobile app uses it: a bidirectional stream with
/// the token as metadata gets the pending notifications in order, then one routed live from the consumer (the outbox id, the
/// data as a map), acks by id delete the rows; a missing or foreign token ends the call UNAUTHENTICATED with the reason; a
/// message that is not an ack ends it INVALID_ARGUMENT, and the gateway goes on.
/// </summary>
[Collection("services")]
public sealed class GatewayGrpcTests
{
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task Stream_PendingInOrderThenLive_AcksDeleteTheRows()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"""
                INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body, data) VALUES
                    (11, 'ana', 'First', 'a', NULL), (12, 'ana', NULL, NULL, '{"{"}"order":"42"{"}"}'), (21, 'bo', 'Bo''s', 'b', NULL)
                """);
        }

        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var channel = Channel(gateway);
        using var call = new LiveGrpc.LiveClient(channel).Connect(Bearer(Token("ana", key)));

        var first = await NextAsync(call);
        var second = await NextAsync(call);
        Assert.Equal((11L, "First", "a"), (first.Id, first.Subject, first.Body));
        Assert.Equal((12L, false, "42"), (second.Id, second.HasSubject, second.Data["order"]));
        long live = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Live", null, new Dictionary<string, string> { ["ride"] = "r-7" }));
        var routed = await NextAsync(call);
        Assert.Equal((live, "Live", "r-7"), (routed.Id, routed.Subject, routed.Data["ride"]));

        foreach (long id in new[] { 11L, 12L, live })
        {
            await call.RequestStream.WriteAsync(new ClientMessage { Ack = new Ack { Id = id } });
        }

        await Eventually.WaitAsync(PendingAsync, p => p.SequenceEqual([21L]), Patience, "Ana's three acks recorded, Bo's row waiting");
        await call.RequestStream.CompleteAsync();
        Assert.False(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Fact]
    public async Task NoTokenOrAnotherKeysToken_Unauthenticated_MalformedMessage_InvalidArgument_GatewayGoesOn()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject) VALUES (21, 'bo', 'Bo''s')");
        }

        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        using var channel = Channel(gateway);
        var client = new LiveGrpc.LiveClient(channel);

        var none = await Assert.ThrowsAsync<RpcException>(() => client.Connect().ResponseStream.MoveNext(CancellationToken.None));
        var foreign = await Assert.ThrowsAsync<RpcException>(() => client.Connect(Bearer(Token("bo", NewKey()))).ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal((StatusCode.Unauthenticated, "no token: send the metadata 'authorization: Bearer <jwt>'"), (none.StatusCode, none.Status.Detail));
        Assert.Equal((StatusCode.Unauthenticated, "the token's signature is not valid"), (foreign.StatusCode, foreign.Status.Detail));

        using (var bad = client.Connect(Bearer(Token("bo", key))))
        {
            Assert.Equal(21L, (await NextAsync(bad)).Id);
            await bad.RequestStream.WriteAsync(new ClientMessage());
            var refused = await Assert.ThrowsAsync<RpcException>(() => bad.ResponseStream.MoveNext(CancellationToken.None));
            Assert.Equal(StatusCode.InvalidArgument, refused.StatusCode);
        }

        // The gateway goes on: the next stream gets Bo's notification again (it was not acked).
        using var next = client.Connect(Bearer(Token("bo", key)));
        Assert.Equal(21L, (await NextAsync(next)).Id);
    }

    private static GrpcChannel Channel(WorkerHost gateway) =>
        GrpcChannel.ForAddress(gateway.Get<LiveServer>().GrpcAddress!, new GrpcChannelOptions { HttpHandler = new SocketsHttpHandler() });

    private static Metadata Bearer(string token) => new() { { "authorization", "Bearer " + token } };

    private static async Task<Notification> NextAsync(AsyncDuplexStreamingCall<ClientMessage, ServerMessage> call)
    {
        using var timeout = new CancellationTokenSource(Patience);
        Assert.True(await call.ResponseStream.MoveNext(timeout.Token), "the stream ended");
        return call.ResponseStream.Current.Notification;
    }

    private static async Task<List<long>> PendingAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending ORDER BY notification_id")).AsList();
    }
}
