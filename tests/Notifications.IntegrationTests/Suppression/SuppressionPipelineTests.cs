using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Data;
using Priority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>
/// The suppression list on the real broker, database and SMTP server: a hard bounce suppresses its address, and
/// the next notification to it (or to a suppressed domain) is recorded 'suppressed' and never reaches the server.
/// </summary>
[Collection("services")]
public sealed class SuppressionPipelineTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(1);

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task HardBounce_RcptRejected5xx_AddressSuppressedAndTheNextNotificationNeverReachesTheServer(string mode)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync("-f RCPT");
        long bounced = await SuppressionProbe.EnqueueAsync("Gone@Example.com");

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await StatusProbe.WaitForAsync(bounced, "dead_lettered");
            var row = Assert.Single(await SuppressionProbe.RowsAsync());
            Assert.Equal(("gone@example.com", SuppressionReasons.HardBounce, "all", false), (row.Address, row.Reason, row.Scope, row.Removed));
            Assert.StartsWith("RCPT TO: 5", row.Detail, StringComparison.Ordinal);

            // The relay takes every recipient again: only the suppression list stops the second one.
            await sink.RestartAsync();
            long next = await SuppressionProbe.EnqueueAsync("gone@example.com");
            long other = await SuppressionProbe.EnqueueAsync("other@example.com");
            await StatusProbe.WaitForAsync(next, "suppressed");
            await StatusProbe.WaitForAsync(other, "sent");
            Assert.Equal(1, sink.CountByNotificationId().GetValueOrDefault(other));
            Assert.False(sink.CountByNotificationId().ContainsKey(next));
            var show = await StatusProbe.ShowAsync(broker, next);
            Assert.Contains($"Notification {next}: suppressed, not sent", show.Output, StringComparison.Ordinal);
        }

        // One dead letter (the bounce), none for the suppressed one; nothing left in any queue.
        var letter = Assert.Single(await broker.DrainDeadLettersAsync());
        Assert.StartsWith("smtp permanent failure 5", letter.Reason, StringComparison.Ordinal);
        Assert.Empty(await broker.NonEmptyQueuesAsync());
        Assert.Equal(1, await db.CountAsync("dead_letter"));
    }

    [Fact]
    public async Task Suppress_DomainEntryAndBulkOnlyUnsubscribe_SuppressedInScopeTheRestSent()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var store = SuppressionProbe.Store();
        await store.AddAsync("@blocked.test", SuppressionReasons.Manual, "all", "a test", CancellationToken.None);
        await store.AddAsync("reader@example.com", SuppressionReasons.Unsubscribed, "bulk", null, CancellationToken.None);
        long domain = await SuppressionProbe.EnqueueAsync("anyone@Blocked.test", Priority.Urgent);
        long domainBulk = await SuppressionProbe.EnqueueAsync("someone@blocked.test", Priority.Bulk);
        long unsubscribedBulk = await SuppressionProbe.EnqueueAsync("reader@example.com", Priority.Bulk);
        long unsubscribedNormal = await SuppressionProbe.EnqueueAsync("reader@example.com");
        long otherBulk = await SuppressionProbe.EnqueueAsync("other@example.com", Priority.Bulk);

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            foreach (long id in (long[])[domain, domainBulk, unsubscribedBulk])
            {
                await StatusProbe.WaitForAsync(id, "suppressed");
            }

            await StatusProbe.WaitForAsync(unsubscribedNormal, "sent");
            await StatusProbe.WaitForAsync(otherBulk, "sent");
            using var http = new HttpClient { BaseAddress = consumer.Get<Shared.Observability.OperationsEndpoint>().Address };
            string metrics = await http.GetStringAsync("/metrics");
            Assert.Matches(@"(?m)^notifications_suppressed_total(\{[^}]*\})? 3( |$)", metrics);
            Assert.Matches(@"(?m)^notifications_suppression_entries(\{[^}]*\})? 2( |$)", metrics);
        }

        var counts = sink.CountByNotificationId();
        Assert.Equal(new[] { otherBulk, unsubscribedNormal }.Order(), counts.Keys.Order());
        Assert.All(counts.Values, n => Assert.Equal(1, n));
        Assert.Equal(3, await db.CountLogAsync("suppressed"));
        Assert.Empty(await broker.DrainDeadLettersAsync());
    }
}
