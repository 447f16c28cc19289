using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Outcomes;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Outcomes;

/// <summary>
/// The live channel's outcome events (docs/outcome-events.md): a real gateway, a real WebSocket client that acks, and the app's
/// endpoint at the Standard Webhooks receiver (which verifies every signature), the events sent by the real producer and
/// consumer. An ack is a <c>notification.acked</c> event and a pending row that expired unacked a <c>notification.expired</c>
/// one, each once; without a subscription neither is made, and an expiry is reported all the same (not later, when one comes).
/// </summary>
[Collection("services")]
public sealed class LiveOutcomeEventTests
{
    private static readonly string S = TestDatabase.Schema;
    private static readonly TimeSpan Wait = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task LiveAckedAndOneExpired_EndpointSubscribed_ReceivesSignedAckedAndExpiredEvents_EachOnce()
    {
        await using var scene = await WebhookScene.StartAsync();
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.Acked, OutcomeEventTypes.Expired);
        await InsertPendingAsync(acked: 101, expired: 102, waiting: 103);
        string key = NewKey();

        await using (var gateway = await WorkerHost.StartGatewayAsync(scene.Broker, ("Gateway:TokenKey", key), ("Gateway:OutcomeInterval", "00:00:00.2")))
        await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            using var ana = await ConnectAsync(gateway, "ana", key);
            Assert.Equal("101", await ReceiveIdAsync(ana));
            await AckAsync(ana, "101");
            await Eventually.WaitAsync(() => Task.FromResult(OutcomeEventScene.Accepted(scene).Count), n => n == 2, Wait, "the acked and the expired event accepted");
            Assert.Equal("103", await ReceiveIdAsync(ana));   // the next one: the expired row was not sent
        }

        var events = OutcomeEventScene.Accepted(scene).OrderBy(e => e.NotificationId).Select(e => (e.NotificationId, e.Type, e.Channel, e.Recipient));
        Assert.Equal([(101L, OutcomeEventTypes.Acked, "live", "ana"), (102L, OutcomeEventTypes.Expired, "live", "ana")], events);
        Assert.Equal(1, await OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Acked));
        Assert.Equal(1, await OutcomeEventScene.CountMadeAsync(OutcomeEventTypes.Expired));
        Assert.Equal([102L], await ReportedAsync());
    }

    [Fact]
    public async Task LiveAckedAndOneExpired_NoEndpointSubscribed_NoEventMade_TheExpiryReportedAllTheSame()
    {
        await using var scene = await WebhookScene.StartAsync();
        await OutcomeEventScene.SubscribeAsync(scene);
        await InsertPendingAsync(acked: 101, expired: 102, waiting: 103);
        string key = NewKey();

        await using (var gateway = await WorkerHost.StartGatewayAsync(scene.Broker, ("Gateway:TokenKey", key), ("Gateway:OutcomeInterval", "00:00:00.2")))
        {
            using var ana = await ConnectAsync(gateway, "ana", key);
            Assert.Equal("101", await ReceiveIdAsync(ana));
            await AckAsync(ana, "101");
            await Eventually.WaitAsync(ReportedAsync, r => r.Count == 1, Wait, "the expired row reported");
            await Eventually.WaitAsync(PendingIdsAsync, p => !p.Contains(101), Wait, "the ack recorded");
        }

        // The ack and the sweep write their events in their own transaction: none by now is none at all.
        Assert.Equal(0, await scene.Db.CountAsync("outcome_event"));
        Assert.Equal(0, await scene.Db.CountAsync("outbox"));
    }

    // Ana's 101 and 103 pending, her 102 expired a second ago.
    private static async Task InsertPendingAsync(long acked, long expired, long waiting)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"""
            INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, expires_at)
            VALUES (@acked, 'ana', 'First', NULL), (@expired, 'ana', 'Gone', now() - interval '1 second'), (@waiting, 'ana', 'Third', NULL)
            """,
            new { acked, expired, waiting });
    }

    private static async Task<List<long>> ReportedAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending WHERE expiry_reported_at IS NOT NULL ORDER BY 1")).AsList();
    }

    private static async Task<List<long>> PendingIdsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending ORDER BY 1")).AsList();
    }
}
