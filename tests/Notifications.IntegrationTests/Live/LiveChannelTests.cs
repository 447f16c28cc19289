using System.Globalization;
using System.Net.WebSockets;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Audiences;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Push;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// The live channel end to end (issue 30, docs/live.md): a row enqueued with <c>NewNotification.Live</c> goes through the
/// producer and the consumer, which writes it pending and publishes it to the live exchange; the gateway node holding the
/// subscriber's connection (of two on one broker) forwards it to the app, with the outbox id as its id; an app acks it by id
/// and the row is gone; one not connected finds it pending at its next connect, on any node. At least once sends an unacked
/// notification again on reconnect; at most once never does.
/// </summary>
[Collection("services")]
public sealed class LiveChannelTests
{
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task AtLeastOnce_RoutedToTheNodeHoldingTheSubscriber_AckedRowGone_UnackedSentAgainOnReconnectToAnotherNode()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var nodeA = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var nodeB = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var ana = await ConnectAsync(nodeB, "ana", key);
        using var bo = await ConnectAsync(nodeA, "bo", key);

        long forAna = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Your ride", "arrives in 2 min", new Dictionary<string, string> { ["ride"] = "r-7" }));
        long forBo = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Hello", null));

        var frame = await ReceiveAsync(ana);
        Assert.Equal(
            ("notification", Id(forAna), "Your ride", "arrives in 2 min", "r-7"),
            (frame.GetProperty("type").GetString(), frame.GetProperty("id").GetString(), frame.GetProperty("subject").GetString(),
             frame.GetProperty("body").GetString(), frame.GetProperty("data").GetProperty("ride").GetString()));
        Assert.Equal(Id(forBo), await ReceiveIdAsync(bo));
        await AckAsync(ana, Id(forAna));
        await Eventually.WaitAsync(PendingAsync, p => !p.Contains(forAna), Patience, "Ana's ack recorded");
        Assert.Equal([forBo], await PendingAsync());

        // Bo does not ack, and goes: his row waits. Reconnecting to the other node, he gets it again, then what came meanwhile.
        await bo.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        long meanwhile = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Meanwhile", null));
        await Eventually.WaitAsync(PendingAsync, p => p.Contains(meanwhile), Patience, "the consumer wrote Bo's second row");
        using var boAgain = await ConnectAsync(nodeB, "bo", key);
        Assert.Equal([Id(forBo), Id(meanwhile)], [await ReceiveIdAsync(boAgain), await ReceiveIdAsync(boAgain)]);

        // Live again, each once on this connection: the next frame is the next notification, no copy of one before.
        long later = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Later", null));
        Assert.Equal(Id(later), await ReceiveIdAsync(boAgain));
        foreach (long id in new[] { forBo, meanwhile, later })
        {
            await AckAsync(boAgain, Id(id));
        }

        await Eventually.WaitAsync(PendingAsync, p => p.Count == 0, Patience, "every row acked");
        Assert.Empty(sink.MessageFiles());
    }

    [Fact]
    public async Task AtMostOnce_SentOnce_NotSentAgainOnReconnect_EvenUnacked()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", "AtMostOnce"));
        await using var producer = await WorkerHost.StartProducerAsync(broker);

        long first;
        using (var ana = await ConnectAsync(gateway, "ana", key))
        {
            first = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Once", "only"));
            Assert.Equal(Id(first), await ReceiveIdAsync(ana));
            await ana.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);   // no ack
        }

        long pendingOffline = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "While away", null));
        await Eventually.WaitAsync(PendingAsync, p => p.Contains(pendingOffline), Patience, "the consumer wrote the second row");
        using var again = await ConnectAsync(gateway, "ana", key);
        long next = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Next", null));

        // Not the first again: the one written while away (never sent), then the next.
        Assert.Equal([Id(pendingOffline), Id(next)], [await ReceiveIdAsync(again), await ReceiveIdAsync(again)]);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.True(await connection.ExecuteScalarAsync<bool>(
            $"SELECT at_most_once AND sent_at IS NOT NULL FROM {S}.live_pending WHERE notification_id = @first", new { first }));
        var (exit, output, error) = await Operations.AdminRun.InProcessAsync(broker, "", "show", Id(first));
        Assert.True(exit == 0, error);
        Assert.Matches(@"live:\s+not acked by ana's apps, pending since .+Z, until .+Z; sent at most once, at .+Z", output);
    }

    [Fact]
    public async Task GatewaysBrokerConnectionCut_WhatWasRoutedMeanwhileComesAfterItsRecovery_TheClientStaysConnected()
    {
        // The node's queue goes with its broker connection; the client's recovery brings it back with its bindings, and each
        // connection here reads its rows again: a notification published while the queue was gone still reaches the app.
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var ana = await ConnectAsync(gateway, "ana", key);
        long before = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Before", null));
        Assert.Equal(Id(before), await ReceiveIdAsync(ana));

        using var management = BrokerManagement.Create();
        string vhost = BrokerManagement.VhostOf(broker.Options.Uri);
        var connections = await Eventually.WaitAsync(() => management.ConnectionsAsync(vhost, "notifications-gateway"), c => c.Count == 1, Patience, "the gateway's broker connection listed");
        await management.CloseConnectionAsync(connections[0], "test: the gateway's broker connection cut");
        long meanwhile = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Meanwhile", null));

        Assert.Equal(Id(meanwhile), await ReceiveIdAsync(ana));
        Assert.Equal(WebSocketState.Open, ana.State);
    }

    [Fact]
    public async Task AnAppThatNeverAcks_PendingCappedPerSubscriber_TheOldestExpire_TheNewestSentInOrder()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Live:MaxPendingPerSubscriber", "3"));
        await using var producer = await WorkerHost.StartProducerAsync(broker);

        // One at a time, each written before the next (the cap counts what is pending when a row is written).
        var ids = new List<long>();
        for (int i = 1; i <= 5; i++)
        {
            ids.Add(await TestDatabase.EnqueueAsync(NewNotification.Live("ana", $"Offer {i}", null)));
            await Eventually.WaitAsync(PendingAsync, p => p.Contains(ids[^1]), Patience, $"row {i} written");
        }

        using var ana = await ConnectAsync(gateway, "ana", key);
        Assert.Equal(ids[2..].Select(Id), [await ReceiveIdAsync(ana), await ReceiveIdAsync(ana), await ReceiveIdAsync(ana)]);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(ids[..2], await connection.QueryAsync<long>(
            $"SELECT notification_id FROM {S}.live_pending WHERE expires_at <= now() ORDER BY notification_id"));
        await gateway.StopAsync();
        Assert.Equal(2, consumer.Services.GetRequiredService<Microsoft.Extensions.Logging.Testing.FakeLogCollector>().GetSnapshot()
            .Where(r => r.Id.Id == 4251).Sum(r => int.Parse(r.StructuredState!.First(kv => kv.Key == "Expired").Value!, CultureInfo.InvariantCulture)));
    }

    [Fact]
    public async Task TopicWithLiveAndEmail_EachSubscribersAppsGetOneLiveDelivery_AnEmailToEachAddress_TheUnconnectedWaits()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await RegisterRidersAsync();

        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var ana = await ConnectAsync(gateway, "ana", key);

        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToTopic(
            "riders", "Surge", "Prices are up", AudienceChannels.Live | AudienceChannels.Email, new Dictionary<string, string> { ["zone"] = "z-3" }));

        var frame = await ReceiveAsync(ana);
        await sink.WaitForMessagesAsync(1, Patience);
        await using var connection = await TestDatabase.OpenAsync();
        var deliveries = (await connection.QueryAsync<(long Id, string Channel, string Address)>(
            $"SELECT id, channel, address FROM {S}.audience_delivery WHERE parent_id = @parent ORDER BY channel, address", new { parent })).AsList();
        Assert.Equal([("email", "bo@example.test"), ("live", "ana"), ("live", "bo")], deliveries.Select(d => (d.Channel, d.Address)));
        Assert.Equal(
            (Id(deliveries[1].Id), "Surge", "Prices are up", "z-3"),
            (frame.GetProperty("id").GetString(), frame.GetProperty("subject").GetString(), frame.GetProperty("body").GetString(),
             frame.GetProperty("data").GetProperty("zone").GetString()));
        await Eventually.WaitAsync(PendingAsync, p => p.Contains(deliveries[2].Id), Patience, "Bo's live delivery pending");
        await AckAsync(ana, Id(deliveries[1].Id));
        await Eventually.WaitAsync(PendingAsync, p => p.SequenceEqual([deliveries[2].Id]), Patience, "Ana's ack recorded, Bo's waiting");
    }

    [Fact]
    public async Task LiveThenPush_PushOnlyWhereNoAppAckedInTime_CarryingTheLiveId_TheAckedOnesCopyRecordedNotSent()
    {
        await using var world = await PushWorld.StartAsync();
        string key = NewKey();
        string anaDevice = PushWorld.NewFcmToken(), boDevice = PushWorld.NewFcmToken();
        await PushWorld.RegisterDevicesAsync("ana", PushWorld.Recipient("fcm", anaDevice));
        await PushWorld.RegisterDevicesAsync("bo", PushWorld.Recipient("fcm", boDevice));
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"""
                INSERT INTO {S}.topic (name) VALUES ('riders');
                INSERT INTO {S}.subscription (topic_id, subscriber_id) SELECT t.id, s.id FROM {S}.topic AS t, {S}.subscriber AS s WHERE t.name = 'riders'
                """);
        }

        await using var gateway = await WorkerHost.StartGatewayAsync(world.Broker, ("Gateway:TokenKey", key));
        await using var consumer = await world.StartConsumerAsync();
        await using var producer = await world.StartProducerAsync();
        using var ana = await ConnectAsync(gateway, "ana", key);

        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("riders", "Surge", "Prices are up", AudienceChannels.LiveThenPush));

        // Ana's app acks at once; Bo has none connected.
        string anaLive = await ReceiveIdAsync(ana);
        await AckAsync(ana, anaLive);
        await using var connection = await TestDatabase.OpenAsync();
        var deliveries = (await connection.QueryAsync<(long Id, string Subscriber, string Channel)>($"""
            SELECT d.id, s.external_id, d.channel FROM {S}.audience_delivery AS d JOIN {S}.subscriber AS s ON s.id = d.subscriber_id
            WHERE d.parent_id = @parent ORDER BY s.external_id, d.channel
            """, new { parent })).AsList();
        Assert.Equal([("ana", "live"), ("ana", "push"), ("bo", "live"), ("bo", "push")], deliveries.Select(d => (d.Subscriber, d.Channel)));
        Assert.Equal(Id(deliveries[0].Id), anaLive);
        string boLive = Id(deliveries[2].Id);

        // Bo's push copy goes once his live delivery has waited unacked for Live:PushAfter (2 s), with his live id as its id.
        var boPush = await Eventually.WaitAsync(() => Task.FromResult(world.RequestsFor(boLive)), r => r.Count > 0, Patience, "Bo's push copy");
        var boWritten = await connection.ExecuteScalarAsync<DateTime>($"SELECT created_at FROM {S}.live_pending WHERE notification_id = @id", new { id = deliveries[2].Id });
        // At least once: a send cut off on a loaded box may reach the push server twice; every request is Bo's device's.
        Assert.All(boPush, r => Assert.Equal(("fcm", boDevice), (r.Provider, r.Token)));
        var first = boPush.Min(r => r.ArrivedAt);
        Assert.True(first - new DateTimeOffset(DateTime.SpecifyKind(boWritten, DateTimeKind.Utc)) >= TimeSpan.FromSeconds(1.9),
            $"the push copy went {first - new DateTimeOffset(DateTime.SpecifyKind(boWritten, DateTimeKind.Utc))} after the live row was written");

        // Ana's push copy is recorded, not sent: her app acked the live one.
        var anaPush = await Eventually.WaitAsync(() => Status.StatusProbe.GetAsync(deliveries[1].Id), s => s.State != "in_flight", Patience, "Ana's push copy decided");
        Assert.Equal(("live_acked", $"an app acked live delivery {anaLive}"), (anaPush.State, anaPush.Reason));
        Assert.Empty(world.RequestsFor(anaLive));
        Assert.DoesNotContain(world.Server.Log.Requests, r => r.Token == anaDevice);
    }

    [Fact]
    public async Task OptedOutOfACategoryOnLive_NoLiveDeliveryOfIt_ARowOfItRecordedOptedOut_OthersAndOtherChannelsGo()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"INSERT INTO {S}.category (name, critical) VALUES ('marketing', false)");
        }

        await RegisterRidersAsync((registry, tx) => registry.SetPreferenceAsync(tx, "bo", "marketing", "live", enabled: false));

        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var bo = await ConnectAsync(gateway, "bo", key);

        long topic = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("riders", "Sale", "Half price", AudienceChannels.Live | AudienceChannels.Email) with { Category = "marketing" });
        long row = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Sale", "Half price") with { Category = "marketing" });
        long other = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Your ride", null));

        // Bo's app gets only the uncategorised one; his email (not opted out there) goes; Ana's live delivery waits for her app.
        Assert.Equal(Id(other), await ReceiveIdAsync(bo));
        await sink.WaitForMessagesAsync(1, Patience);
        await using var connection = await TestDatabase.OpenAsync();
        var outcomes = await connection.QueryAsync<(string Subscriber, string Channel, string Outcome)>($"""
            SELECT s.external_id, d.channel, d.outcome FROM {S}.audience_delivery AS d JOIN {S}.subscriber AS s ON s.id = d.subscriber_id
            WHERE d.parent_id = @topic ORDER BY s.external_id, d.channel
            """, new { topic });
        Assert.Equal([("ana", "live", "published"), ("bo", "email", "published"), ("bo", "live", "opted_out")], outcomes);
        var status = await Eventually.WaitAsync(() => Status.StatusProbe.GetAsync(row), s => s.State != "in_flight", Patience, "the categorised row decided");
        Assert.Equal("opted_out", status.State);
        Assert.Contains("bo", status.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Outbox_LiveRowWithABadSubscriber_RefusedByItsCheck_LiveAudienceSetsAccepted()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
        foreach (string channels in new[] { "live", "email,live", "push,live", "email,push,live", "live>push", "email,live>push" })
        {
            await connection.ExecuteAsync(
                $"INSERT INTO {S}.outbox (channel, channels, recipient, subject, body) VALUES ('audience', @channels, 'topic:riders', 's', 'b')", new { channels });
        }

        await Assert.ThrowsAsync<Npgsql.PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {S}.outbox (channel, channels, recipient, subject, body) VALUES ('audience', 'live,email', 'topic:riders', 's', 'b')"));

        var refused = await Assert.ThrowsAsync<Npgsql.PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {S}.outbox (channel, recipient, subject, body) VALUES ('live', 'not a subscriber', 'a', 'b')"));
        await connection.ExecuteAsync($"INSERT INTO {S}.outbox (channel, recipient, subject, body) VALUES ('live', 'ana-1', 'a', 'b')");

        Assert.Equal("outbox_live_recipient", refused.ConstraintName);
    }

    // Ana and Bo (Bo with an email address) subscribed to the topic riders, and whatever else a test registers.
    private static async Task RegisterRidersAsync(Func<ISubscriberRegistry, System.Data.Common.DbTransaction, Task>? more = null)
    {
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana"));
            await registry.UpsertSubscriberAsync(tx, new Subscriber("bo"));
            await registry.AddEmailAsync(tx, "bo", "bo@example.test");
            await registry.SubscribeAsync(tx, "ana", "riders");
            await registry.SubscribeAsync(tx, "bo", "riders");
            if (more is not null)
            {
                await more(registry, tx);
            }
        });
    }

    private static string Id(long id) => id.ToString(CultureInfo.InvariantCulture);

    private static async Task<List<long>> PendingAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending ORDER BY notification_id")).AsList();
    }
}
