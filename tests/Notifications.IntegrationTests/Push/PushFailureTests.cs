using System.Net;
using Dapper;
using Microsoft.Extensions.Options;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// The push server's bad answers and bad rows through the real consumer: an unregistered token is dead-lettered and suppressed
/// (a later row to it is not sent), a 429's Retry-After is waited out, a 500 retried, an over-size payload, a bad token and an
/// unconfigured provider dead-lettered with their reasons — while the rows around them are delivered.
/// </summary>
[Collection("services")]
public sealed class PushFailureTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("fcm", "AtLeastOnce", "404 UNREGISTERED")]
    [InlineData("apns", "AtLeastOnce", "410 Unregistered")]
    [InlineData("fcm", "AtMostOnce", "404 UNREGISTERED")]
    [InlineData("apns", "AtMostOnce", "410 Unregistered")]
    public async Task Push_UnregisteredToken_DeadLetteredSuppressedAndLaterRowSuppressed(string provider, string mode, string answer)
    {
        await using var world = await PushWorld.StartAsync();
        string token = provider == "fcm" ? PushWorld.NewFcmToken() : PushWorld.NewApnsToken();
        string recipient = PushWorld.Recipient(provider, token);
        string goodRecipient = PushWorld.Recipient(provider, provider == "fcm" ? PushWorld.NewFcmToken() : PushWorld.NewApnsToken());
        world.Server.Log.MarkUnregistered(token);
        await PushWorld.RegisterDevicesAsync("ana", recipient, goodRecipient);
        var (first, firstMarker) = await world.InsertAsync(recipient);
        var (good, _) = await world.InsertAsync(goodRecipient);

        await using var consumer = await world.StartConsumerAsync(more: ("Consumer:DeliveryMode", mode));
        await using (await world.StartProducerAsync())
        {
            string reason = await Eventually.WaitAsync(() => PushWorld.DeadLetterReasonAsync(first), r => r is not null, Patience, "dead letter") ?? "";
            Assert.Contains($"push {provider} permanent failure", reason, StringComparison.Ordinal);
            Assert.Contains(answer, reason, StringComparison.Ordinal);
            Assert.Equal("unregistered", await PushWorld.SuppressionReasonAsync(recipient));
            // The registry's device is dead too, so no fan-out picks it again; the good device stays alive.
            Assert.Contains(answer, await PushWorld.ContactPointDeadReasonAsync(recipient) ?? "(alive)", StringComparison.Ordinal);
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(good), s => s == "sent", Patience, "the good row sent");
            Assert.Null(await PushWorld.ContactPointDeadReasonAsync(goodRecipient));

            var (later, laterMarker) = await world.InsertAsync(recipient);
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(later), s => s == "suppressed", Patience, "the later row suppressed");
            Assert.Empty(world.RequestsFor(laterMarker));
        }

        Assert.Single(world.RequestsFor(firstMarker));
    }

    [Theory]
    [InlineData("fcm")]
    [InlineData("apns")]
    public async Task Push_TokensDifferingOnlyInCase_OneUnregisteredTheOtherStillDelivered(string provider)
    {
        // Push tokens are case-sensitive: two that differ only in case are two devices (issue 27, item 14).
        await using var world = await PushWorld.StartAsync();
        string token = provider == "fcm" ? PushWorld.NewFcmToken() : PushWorld.NewApnsToken();
        string gone = token.ToLowerInvariant();
        string other = token.ToUpperInvariant();
        world.Server.Log.MarkUnregistered(gone);
        await PushWorld.RegisterDevicesAsync("ana", PushWorld.Recipient(provider, gone), PushWorld.Recipient(provider, other));
        var (first, _) = await world.InsertAsync(PushWorld.Recipient(provider, gone));

        await using (await world.StartConsumerAsync())
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.DeadLetterReasonAsync(first), r => r is not null, Patience, "the unregistered token's dead letter");
            var (next, marker) = await world.InsertAsync(PushWorld.Recipient(provider, other));
            string status = await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(next), s => s is not null, Patience, "the other token's row settled") ?? "";

            Assert.Equal("sent", status);
            Assert.Equal(1, world.Server.Log.AcceptedCountFor(marker));
        }

        var rows = await SuppressionRowsAsync();
        Assert.Equal([(PushWorld.Recipient(provider, gone), "unregistered")], rows);
        Assert.NotNull(await PushWorld.ContactPointDeadReasonAsync(PushWorld.Recipient(provider, gone)));
        Assert.Null(await PushWorld.ContactPointDeadReasonAsync(PushWorld.Recipient(provider, other)));
    }

    private static async Task<List<(string Address, string Reason)>> SuppressionRowsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<(string, string)>(
            $"SELECT address, reason FROM {TestDatabase.Schema}.suppression WHERE removed_at IS NULL ORDER BY address")).AsList();
    }

    [Theory]
    [InlineData("fcm")]
    [InlineData("apns")]
    public async Task Push_429WithRetryAfter_NextRequestWaitsItOutThenDelivered(string provider)
    {
        await using var world = await PushWorld.StartAsync();
        var retryAfter = TimeSpan.FromSeconds(3);
        (provider == "fcm" ? world.Server.FcmScript : world.Server.ApnsScript).Next(1, ScriptedAnswer.With(HttpStatusCode.TooManyRequests, retryAfter));
        var (id, marker) = await world.InsertAsync(PushWorld.Recipient(provider, provider == "fcm" ? PushWorld.NewFcmToken() : PushWorld.NewApnsToken()));

        await using (await world.StartConsumerAsync())
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(id), s => s == "sent", Patience, "sent after the 429");
        }

        var requests = world.RequestsFor(marker);
        Assert.Equal([429, 200], requests.Select(r => r.AnsweredStatus));
        // The retry's own delay (RetryDelays[0] = 1 s) is shorter: the wait is the Retry-After's.
        Assert.True(requests[1].ArrivedAt - requests[0].ArrivedAt >= retryAfter - TimeSpan.FromMilliseconds(50),
            $"second request {requests[1].ArrivedAt - requests[0].ArrivedAt} after the first");
    }

    [Fact]
    public async Task Push_429WithFleetLimitOnProviderHost_FleetRateSlowedAndDeliveredOnce()
    {
        await using var world = await PushWorld.StartAsync();
        await PushWorld.ClearRateLimitsAsync();
        world.Server.FcmScript.Next(1, ScriptedAnswer.With(HttpStatusCode.TooManyRequests, TimeSpan.FromSeconds(1)));
        var (id, marker) = await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()));

        // The test server's host: the fleet limit of the FCM provider, as fcm.googleapis.com would be in production.
        await using (await world.StartConsumerAsync(more: ("RateLimits:Domains:127.0.0.1", "50/s")))
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(id), s => s == "sent", Patience, "sent after the 429");
        }

        Assert.Equal([429, 200], world.RequestsFor(marker).Select(r => r.AnsweredStatus));
        Assert.Equal(2.0, await PushWorld.SlowFactorAsync("domain:127.0.0.1"));
    }

    [Fact]
    public async Task Push_Fcm401_AccessTokenDroppedNewOneFetchedAndDelivered()
    {
        await using var world = await PushWorld.StartAsync();
        world.Server.FcmScript.Next(1, ScriptedAnswer.With(HttpStatusCode.Unauthorized));
        var (id, marker) = await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()));

        await using (await world.StartConsumerAsync())
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(id), s => s == "sent", Patience, "sent after the 401");
        }

        var requests = world.RequestsFor(marker);
        Assert.Equal([401, 200], requests.Select(r => r.AnsweredStatus));
        Assert.NotEqual(requests[0].Headers["authorization"], requests[1].Headers["authorization"]);
        Assert.Equal(2, world.Server.TokenRequests);
    }

    [Fact]
    public async Task Push_500Twice_RetriedAndDeliveredOnce()
    {
        await using var world = await PushWorld.StartAsync();
        world.Server.ApnsScript.Next(2, ScriptedAnswer.With(HttpStatusCode.InternalServerError));
        var (id, marker) = await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()));

        await using (await world.StartConsumerAsync())
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(id), s => s == "sent", Patience, "sent after two 500s");
        }

        Assert.Equal([500, 500, 200], world.RequestsFor(marker).Select(r => r.AnsweredStatus));
        Assert.Null(await PushWorld.DeadLetterReasonAsync(id));
    }

    [Fact]
    public async Task Push_BadRows_DeadLetteredWithReasonsOthersDelivered()
    {
        await using var world = await PushWorld.StartAsync();
        string badDevice = PushWorld.NewApnsToken() + "ab";   // 66 hex digits: our rules take it, APNs answers BadDeviceToken
        // Within the rows' 4096 bytes, over the APNs payload's once "aps" and the JSON around it are added.
        long overSize = await PushWorld.InsertRawAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()), "T", "B",
            $$"""{"pad": "{{new string('x', 4080)}}"}""");
        long overRules = await PushWorld.InsertRawAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()), "T", "B",
            $$"""{"pad": "{{new string('x', 4100)}}"}""");
        long badFcm = await PushWorld.InsertRawAsync("fcm:not a token!", "T", "B", null);
        var (badApns, _) = await world.InsertAsync(PushWorld.Recipient("apns", badDevice));
        var (good, goodMarker) = await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()));

        await using (await world.StartConsumerAsync())
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.DeadLetterReasonAsync(badApns), r => r is not null, Patience, "dead letters");
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(good), s => s == "sent", Patience, "the good row sent");
        }

        Assert.StartsWith("push payload too large: the APNs payload is", await PushWorld.DeadLetterReasonAsync(overSize), StringComparison.Ordinal);
        Assert.Contains("over the providers' 4096-byte payload limit", await PushWorld.DeadLetterReasonAsync(overRules), StringComparison.Ordinal);
        Assert.Contains("invalid FCM registration token", await PushWorld.DeadLetterReasonAsync(badFcm), StringComparison.Ordinal);
        Assert.Contains("400 BadDeviceToken", await PushWorld.DeadLetterReasonAsync(badApns), StringComparison.Ordinal);
        Assert.Equal("unregistered", await PushWorld.SuppressionReasonAsync("apns:" + badDevice));
        Assert.Single(world.RequestsFor(goodMarker));
        // Only the good row and the bad device token reached the server: the others were refused before any request.
        Assert.Equal(2, world.Server.Log.Requests.Count(r => r.Provider is "fcm" or "apns"));
    }

    [Fact]
    public async Task Push_ProviderNotConfigured_DeadLetteredOtherProviderDelivered()
    {
        await using var world = await PushWorld.StartAsync();
        var (apns, _) = await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()));
        var (fcm, _) = await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()));

        await using (await world.StartConsumerAsync(apns: false))
        await using (await world.StartProducerAsync())
        {
            await Eventually.WaitAsync(() => PushWorld.DeadLetterReasonAsync(apns), r => r is not null, Patience, "dead letter");
            await Eventually.WaitAsync(() => PushWorld.LogStatusAsync(fcm), s => s == "sent", Patience, "the FCM row sent");
        }

        Assert.StartsWith("push provider 'apns' is not configured", await PushWorld.DeadLetterReasonAsync(apns), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Push_ApnsKeyFileNotAKey_ConsumerDoesNotStartAndSaysWhy()
    {
        await using var world = await PushWorld.StartAsync();
        string notAKey = Path.Combine(Path.GetTempPath(), $"not-a-key-{Guid.NewGuid():N}.p8");
        await File.WriteAllTextAsync(notAKey, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        try
        {
            var thrown = await Assert.ThrowsAsync<OptionsValidationException>(() => world.StartConsumerAsync(more: ("Push:Apns:PrivateKeyFile", notAKey)));

            Assert.Contains($"Push:Apns:PrivateKeyFile '{notAKey}' cannot be used: ", thrown.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(notAKey);
        }
    }
}
