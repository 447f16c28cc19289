using System.Text;
using System.Text.Json;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// Push rows through the real producer and consumer to the push server, which checks what FCM and APNs check (OAuth2 token from
/// an RS256 assertion, ES256 provider token, headers, payload): every notification arrives, accepted, with the right request.
/// </summary>
[Collection("services")]
public sealed class PushDeliveryTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Push_FcmAndApnsRows_EachArrivesOnceAcceptedWithItsHeadersAndPayload(string mode)
    {
        await using var world = await PushWorld.StartAsync();
        var expires = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.AddHours(2).ToUnixTimeSeconds());
        var rows = new List<(long Id, string Marker, string Kind)>();
        for (int i = 0; i < 20; i++)
        {
            rows.Add(Row(await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()), subject: $"Order {i}", expiresAt: expires), "fcm"));
            rows.Add(Row(await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()), priority: "bulk"), "fcm-bulk"));
            rows.Add(Row(await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()), subject: $"Order {i}", expiresAt: expires), "apns"));
            rows.Add(Row(await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()), subject: "", body: "", extraData: "\"sync\": \"1\""), "apns-background"));
            rows.Add(Row(await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()), priority: "bulk"), "apns-bulk"));
        }

        await using (await world.StartConsumerAsync(more: ("Consumer:DeliveryMode", mode)))
        await using (var producer = await world.StartProducerAsync())
        {
            await WaitAllSentAsync(world, rows);
        }

        foreach (var (id, marker, kind) in rows)
        {
            var request = Assert.Single(world.RequestsFor(marker));
            Assert.True(request.Verdict.Accepted, $"{kind} {id}: {request.Verdict.Reason}");
            Assert.Equal("HTTP/2", request.Protocol);
            if (kind.StartsWith("apns", StringComparison.Ordinal))
            {
                AssertApns(request, kind, id, expires);
            }
            else
            {
                AssertFcm(request, kind, expires);
            }
        }

        Assert.Equal(0, await world.Database.CountAsync("dead_letter"));
        Assert.InRange(world.Server.TokenRequests, 1, 2);
    }

    // On a timeout, says which rows are missing and what the server answered them.
    private static async Task WaitAllSentAsync(PushWorld world, List<(long Id, string Marker, string Kind)> rows)
    {
        try
        {
            await Eventually.WaitAsync(() => world.Database.CountLogAsync("sent"), n => n == rows.Count, Patience, "delivery log rows 'sent'");
        }
        catch (TimeoutException ex)
        {
            var missing = new List<string>();
            foreach (var (id, marker, kind) in rows)
            {
                if (await PushWorld.LogStatusAsync(id) != "sent")
                {
                    var answers = world.RequestsFor(marker).Select(r => $"{r.AnsweredStatus} {r.Verdict.Reason}");
                    missing.Add($"{kind} {id}: [{string.Join("; ", answers)}] dead letter: {await PushWorld.DeadLetterReasonAsync(id)}");
                }
            }

            throw new TimeoutException($"{ex.Message}; not sent: {string.Join(" | ", missing.Take(6))}", ex);
        }
    }

    private static (long, string, string) Row((long Id, string Marker) row, string kind) => (row.Id, row.Marker, kind);

    private static void AssertApns(PushRequest request, string kind, long id, DateTimeOffset expires)
    {
        bool background = kind == "apns-background";
        Assert.Equal(PushWorld.Topic, request.Headers["apns-topic"]);
        Assert.Equal(background ? "background" : "alert", request.Headers["apns-push-type"]);
        Assert.Equal(kind == "apns" ? "10" : "5", request.Headers["apns-priority"]);
        Assert.Equal(kind == "apns" ? expires.ToUnixTimeSeconds().ToString(System.Globalization.CultureInfo.InvariantCulture) : "0",
            request.Headers["apns-expiration"]);
        Assert.True(Guid.TryParseExact(request.Headers["apns-id"], "D", out var apnsId) && apnsId.ToString("D")[14] == '5', "apns-id is a version-5 UUID");
        Assert.False(request.Headers.ContainsKey("apns-collapse-id"));

        using var payload = JsonDocument.Parse(request.Body);
        var aps = payload.RootElement.GetProperty("aps");
        if (background)
        {
            Assert.Equal(1, aps.GetProperty("content-available").GetInt32());
            Assert.Equal("1", payload.RootElement.GetProperty("sync").GetString());
        }
        else
        {
            Assert.StartsWith(kind == "apns" ? "Order " : "Your order", aps.GetProperty("alert").GetProperty("title").GetString(), StringComparison.Ordinal);
            Assert.Equal("It arrives tomorrow.", aps.GetProperty("alert").GetProperty("body").GetString());
        }

        Assert.True(id > 0);
    }

    private static void AssertFcm(PushRequest request, string kind, DateTimeOffset expires)
    {
        using var body = JsonDocument.Parse(Encoding.UTF8.GetString(request.Body));
        var message = body.RootElement.GetProperty("message");
        Assert.Equal(request.Token, message.GetProperty("token").GetString());
        Assert.Equal("It arrives tomorrow.", message.GetProperty("notification").GetProperty("body").GetString());
        Assert.Equal(request.NotificationId, message.GetProperty("data").GetProperty(PushLog.NotificationIdKey).GetString());
        var android = message.GetProperty("android");
        Assert.Equal(kind == "fcm" ? "high" : "normal", android.GetProperty("priority").GetString());
        if (kind == "fcm")
        {
            double ttl = double.Parse(android.GetProperty("ttl").GetString()!.TrimEnd('s'), System.Globalization.CultureInfo.InvariantCulture);
            Assert.InRange(ttl, (expires - DateTimeOffset.UtcNow).TotalSeconds - 300, (expires - DateTimeOffset.UtcNow).TotalSeconds + 5);
        }
        else
        {
            Assert.False(android.TryGetProperty("ttl", out _));
        }

        Assert.StartsWith("Bearer ya29.test-", request.Headers["authorization"], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Push_ApnsHangsOnce_AtLeastOnceSendsAgainAtMostOnceNever(string mode)
    {
        await using var world = await PushWorld.StartAsync();
        world.Server.ApnsScript.Next(1, ScriptedAnswer.Never);
        var (id, marker) = await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()));

        await using (var consumer = await world.StartConsumerAsync(more: [("Consumer:DeliveryMode", mode), ("Push:Timeout", "00:00:01")]))
        await using (var producer = await world.StartProducerAsync())
        {
            if (mode == "AtLeastOnce")
            {
                await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(id), s => s == "sent", Patience, "sent after the timeout");
            }
            else
            {
                var stats = consumer.Get<ConsumerStats>();
                await Eventually.WaitAsync(() => Task.FromResult(stats.Unknown), n => n == 1, Patience, "the outcome recorded unknown");
                Assert.Empty(await world.Broker.NonEmptyQueuesAsync());
            }
        }

        var requests = world.RequestsFor(marker);
        Assert.Null(requests[0].AnsweredStatus);
        if (mode == "AtLeastOnce")
        {
            Assert.Equal(2, requests.Count);
            Assert.Equal(200, requests[1].AnsweredStatus);
        }
        else
        {
            Assert.Single(requests);
            Assert.Equal("sending", await PushWorld.LogStatusAsync(id));
        }

        Assert.Equal(0, await world.Database.CountAsync("dead_letter"));
    }
}
