using System.Globalization;
using System.Net.WebSockets;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Audiences;
using Notifications.IntegrationTests.Infrastructure;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// A live row to a topic (channels <c>live</c> alone) is one broadcast (docs/live.md#broadcasts-to-a-topic): the consumer
/// writes one <c>live_broadcast</c> row and publishes one frame that every gateway node takes; each node sends it, under the
/// outbox row's id, to its connections of the topic's subscribers the category lets through. A subscriber not connected gets
/// it when it connects; its ack is its receipt. At least once sends an unacked broadcast again on reconnect; at most once
/// never does.
/// </summary>
[Collection("services")]
public sealed class LiveBroadcastTests
{
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task AtLeastOnce_EveryNodesSubscribersOfTheTopicGetIt_NotOthersNorTheOptedOut_TheUnconnectedOnConnect_AckedNotAgain()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await RegisterAsync();
        await using var nodeA = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var nodeB = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var ana = await ConnectAsync(nodeA, "ana", key);
        using var cy = await ConnectAsync(nodeB, "cy", key);
        using var dee = await ConnectAsync(nodeA, "dee", key);
        using var eve = await ConnectAsync(nodeB, "eve", key);

        long sale = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("riders", "Sale", "Half price", AudienceChannels.Live,
            new Dictionary<string, string> { ["zone"] = "z-3" }) with { Category = "marketing" });

        // Ana on one node and Eve on the other get it, under the outbox row's id; one row, no delivery per subscriber.
        var frame = await ReceiveAsync(ana);
        Assert.Equal(
            ("notification", Id(sale), "Sale", "Half price", "z-3"),
            (frame.GetProperty("type").GetString(), frame.GetProperty("id").GetString(), frame.GetProperty("subject").GetString(),
             frame.GetProperty("body").GetString(), frame.GetProperty("data").GetProperty("zone").GetString()));
        Assert.Equal(Id(sale), await ReceiveIdAsync(eve));
        await using (var connection = await TestDatabase.OpenAsync())
        {
            Assert.Equal(1, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {S}.live_broadcast WHERE notification_id = @sale", new { sale }));
            Assert.Equal(0, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {S}.live_pending"));
            Assert.Equal(0, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {S}.audience_delivery"));
        }

        // Cy opted out of marketing on live, Dee is not in the topic: the next broadcast, uncategorised, is the first either sees
        // (Dee's is a row of his own); Dee's ack of the sale is not his to give, and records nothing.
        long news = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("riders", "News", "Line 4 reopened", AudienceChannels.Live));
        long forDee = await TestDatabase.EnqueueAsync(NewNotification.Live("dee", "Yours", null));
        Assert.Equal(Id(news), await ReceiveIdAsync(cy));
        Assert.Equal(Id(forDee), await ReceiveIdAsync(dee));
        await AckAsync(dee, Id(sale));
        Assert.Equal(Id(news), await ReceiveIdAsync(ana));
        Assert.Equal(Id(news), await ReceiveIdAsync(eve));

        // Bo was not connected: he gets both when he connects, oldest first; his acks are his receipts, and he is not sent them again.
        using (var bo = await ConnectAsync(nodeB, "bo", key))
        {
            Assert.Equal([Id(sale), Id(news)], [await ReceiveIdAsync(bo), await ReceiveIdAsync(bo)]);
            await AckAsync(bo, Id(sale));
            await AckAsync(bo, Id(news));
            await Eventually.WaitAsync(AckedAsync, a => a.Contains(("bo", sale)) && a.Contains(("bo", news)), Patience, "Bo's acks recorded");
            await bo.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        }

        long forBo = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Yours", null));
        await Eventually.WaitAsync(() => PendingAsync("bo"), p => p.Contains(forBo), Patience, "Bo's own row pending");
        using (var boAgain = await ConnectAsync(nodeA, "bo", key))
        {
            Assert.Equal(Id(forBo), await ReceiveIdAsync(boAgain));
        }

        // Ana did not ack: at least once, she gets the sale again on reconnect (acking the news first leaves only the sale).
        await AckAsync(ana, Id(news));
        await Eventually.WaitAsync(AckedAsync, a => a.Contains(("ana", news)), Patience, "Ana's ack of the news recorded");
        await ana.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        using var anaAgain = await ConnectAsync(nodeB, "ana", key);
        Assert.Equal(Id(sale), await ReceiveIdAsync(anaAgain));
        Assert.DoesNotContain(("dee", sale), await AckedAsync());
        Assert.Equal("sent", (await Status.StatusProbe.WaitForAsync(sale, "sent")).State);
        Assert.Empty(sink.MessageFiles());
    }

    [Fact]
    public async Task AtMostOnce_EachSubscriberSentItOnce_NotAgainOnReconnect_EvenUnacked()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await RegisterAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", "AtMostOnce"));
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        using var ana = await ConnectAsync(gateway, "ana", key);

        long news = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("riders", "News", "Line 4 reopened", AudienceChannels.Live));
        Assert.Equal(Id(news), await ReceiveIdAsync(ana));
        await ana.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);

        // Bo connects after it: sent once, on connect; neither gets it again, acked or not.
        using (var bo = await ConnectAsync(gateway, "bo", key))
        {
            Assert.Equal(Id(news), await ReceiveIdAsync(bo));
            await bo.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        }

        long forAna = await TestDatabase.EnqueueAsync(NewNotification.Live("ana", "Yours", null));
        long forBo = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Yours", null));
        await Eventually.WaitAsync(() => PendingAsync(null), p => p.Contains(forAna) && p.Contains(forBo), Patience, "their own rows pending");
        using var anaAgain = await ConnectAsync(gateway, "ana", key);
        using var boAgain = await ConnectAsync(gateway, "bo", key);
        Assert.Equal(Id(forAna), await ReceiveIdAsync(anaAgain));
        Assert.Equal(Id(forBo), await ReceiveIdAsync(boAgain));
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(["ana", "bo"], await connection.QueryAsync<string>(
            $"SELECT subscriber_id FROM {S}.live_broadcast_receipt WHERE notification_id = @news AND sent_at IS NOT NULL ORDER BY 1", new { news }));
    }

    [Fact]
    public async Task NeverAcked_PastTheCap_TheOldestExpireForTheSubscriber_TheNewestComeOnEveryConnect()
    {
        await TestDatabase.CleanAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await RegisterAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key), ("Live:MaxPendingPerSubscriber", "3"));
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);

        // Five broadcasts while Bo is away; his app never acks.
        var news = new List<long>();
        for (int i = 1; i <= 5; i++)
        {
            news.Add(await TestDatabase.EnqueueAsync(NewNotification.ToTopic("riders", $"News {i}", "Line 4", AudienceChannels.Live)));
            await Eventually.WaitAsync(BroadcastsAsync, b => b.Contains(news[^1]), Patience, $"broadcast {i} written");
        }

        // The cap is 3: he gets the newest three, oldest first; the two before them expire for him, and only for him.
        var bo = await ConnectAsync(gateway, "bo", key);
        Assert.Equal(news[2..].Select(Id), [await ReceiveIdAsync(bo), await ReceiveIdAsync(bo), await ReceiveIdAsync(bo)]);
        long forBo = await TestDatabase.EnqueueAsync(NewNotification.Live("bo", "Yours", null));
        Assert.Equal(Id(forBo), await ReceiveIdAsync(bo));
        await using (var connection = await TestDatabase.OpenAsync())
        {
            Assert.Equal(news[..2], await connection.QueryAsync<long>(
                $"SELECT notification_id FROM {S}.live_broadcast_receipt WHERE expired_at IS NOT NULL ORDER BY 1"));
            Assert.Equal(0, await connection.ExecuteScalarAsync<int>(
                $"SELECT count(*) FROM {S}.live_broadcast_receipt WHERE expired_at IS NULL"));
        }

        // On every connect, unacked: his own row, then the same three broadcasts; never the expired two.
        await bo.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        bo.Dispose();
        using var boAgain = await ConnectAsync(gateway, "bo", key);
        var again = new List<string>();
        for (int i = 0; i < 4; i++)
        {
            again.Add(await ReceiveIdAsync(boAgain));
        }

        Assert.Equal([Id(forBo), .. news[2..].Select(Id)], again);
        await AckAsync(boAgain, Id(news[4]));
        await Eventually.WaitAsync(AckedAsync, a => a.Contains(("bo", news[4])), Patience, "Bo's ack of the newest recorded");

        // admin show: each broadcast's topic and receipts, who acked and for whom it expired.
        var (exit, acked, error) = await Operations.AdminRun.InProcessAsync(broker, "", "show", Id(news[4]));
        Assert.True(exit == 0, error);
        Assert.Contains("broadcast:   to topic riders, at least once", acked, StringComparison.Ordinal);
        Assert.Matches(@"receipts:\s+1 .*\n\s+acked\s+1\n\s+first 1:\n\s+bo\s+acked\s+", acked.ReplaceLineEndings("\n"));
        var (_, expired, _) = await Operations.AdminRun.InProcessAsync(broker, "", "show", Id(news[0]));
        Assert.Matches(@"\s+expired\s+1\n\s+first 1:\n\s+bo\s+expired\s+", expired.ReplaceLineEndings("\n"));
    }

    [Fact]
    public async Task ToATopicThatDoesNotExist_DeadLetteredWithTheReason_NothingWritten()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker);

        long id = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("nobody-here", "News", "Line 4 reopened", AudienceChannels.Live));

        var status = await Status.StatusProbe.WaitForAsync(id, "dead_lettered");
        Assert.Contains("no topic named 'nobody-here'", status.Reason, StringComparison.Ordinal);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(0, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {S}.live_broadcast"));
    }

    // Ana, Bo, Cy and Eve in the topic riders, Cy opted out of marketing on live; Dee in no topic.
    private static async Task RegisterAsync()
    {
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"INSERT INTO {S}.category (name, critical) VALUES ('marketing', false)");
        }

        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            foreach (string subscriber in new[] { "ana", "bo", "cy", "dee", "eve" })
            {
                await registry.UpsertSubscriberAsync(tx, new Subscriber(subscriber));
            }

            foreach (string subscriber in new[] { "ana", "bo", "cy", "eve" })
            {
                await registry.SubscribeAsync(tx, subscriber, "riders");
            }

            await registry.SetPreferenceAsync(tx, "cy", "marketing", "live", enabled: false);
        });
    }

    private static string Id(long id) => id.ToString(CultureInfo.InvariantCulture);

    private static async Task<List<(string Subscriber, long Id)>> AckedAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<(string, long)>(
            $"SELECT subscriber_id, notification_id FROM {S}.live_broadcast_receipt WHERE acked_at IS NOT NULL")).AsList();
    }

    private static async Task<List<long>> BroadcastsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_broadcast")).AsList();
    }

    private static async Task<List<long>> PendingAsync(string? subscriber)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>(
            $"SELECT notification_id FROM {S}.live_pending WHERE @subscriber IS NULL OR subscriber_id = @subscriber", new { subscriber })).AsList();
    }
}
