using System.Globalization;
using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Hosting;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// Faults mid-fan-out (issue 29, item 5; docs/fan-out.md, "A crash, a restart, another producer"), on the real services and
/// counted at smtp-sink by each delivery's id: the producer SIGKILLs itself after a page's confirms at 40 % of a topic,
/// another producer resumes after the lease; a subscriber unsubscribing between pages. <c>NOTIFICATIONS_FANOUT_FAULT_SUBSCRIBERS</c>
/// sets the topic's size (default 10,000; the row is 200,000). On quorum queues, as the stacks deploy them.
/// </summary>
[Collection("services")]
public sealed class FanOutFaultTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);
    private static readonly (string Key, string Value) TestHooks = (FaultInjector.TestHooksVariable, "1");

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task ProducerKilledAt40Percent_AnotherResumesAfterTheLease_EveryContactPointOnce(string mode)
    {
        int subscribers = int.TryParse(Environment.GetEnvironmentVariable("NOTIFICATIONS_FANOUT_FAULT_SUBSCRIBERS"), CultureInfo.InvariantCulture, out int n) ? n : 10_000;
        const int pageSize = 500;
        await TestDatabase.CleanAsync();
        await FanOutProbe.SeedTopicAsync(subscribers);
        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("everyone", "Hello", "Hi.", AudienceChannels.Email) with { Priority = NotificationPriority.Bulk });

        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum);
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode));
        (string, string)[] fanOut = [("FanOut:PageSize", pageSize.ToString(CultureInfo.InvariantCulture)), ("FanOut:LeaseTime", "00:00:02"), TestHooks];
        int killAtPage = subscribers * 2 / 5 / pageSize;
        await using (var doomed = WorkerProcess.Start("Producer", broker, [.. fanOut, ("Faults:KillAt", $"after-fan-out-page:{killAtPage}")]))
        {
            await Eventually.WaitAsync(() => Task.FromResult(doomed.HasExited), exited => exited, Patience, "the producer killed itself");
            Assert.NotEqual(0, await doomed.WaitForExitAsync(TimeSpan.FromSeconds(10)));
        }

        // Killed after page killAtPage's confirms: the cursor is one page behind, the job still running under the dead lease.
        var (state, cursorPages) = await FanOutProbe.JobAsync(parent, pageSize);
        Assert.Equal((FanOutOutcomes.Running, killAtPage - 1), (state, cursorPages));

        await using var survivor = WorkerProcess.Start("Producer", broker, fanOut);
        await survivor.WaitWhileRunningAsync(() => FanOutProbe.JobAsync(parent, pageSize), j => j.State == FanOutOutcomes.Done, Patience, "the fan-out resumed and done");
        var ids = await FanOutProbe.PublishedIdsAsync(parent);
        Assert.Equal(subscribers, ids.Count);
        await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId()), c => ids.All(c.ContainsKey), Patience, "every delivery at smtp-sink");

        // Every contact point at least once; the page in flight at the kill is the most that can come twice (at least once), and
        // nothing comes twice at most once. Nothing but the deliveries arrives.
        var counts = sink.CountByNotificationId();
        Assert.Empty(counts.Keys.Except(ids));
        int twice = counts.Values.Count(c => c > 1);
        output.WriteLine(FormattableString.Invariant(
            $"{mode}: {subscribers} subscribers, killed after page {killAtPage} of {subscribers / pageSize}: {counts.Count} delivered, {twice} twice"));
        Assert.InRange(twice, 0, mode == "AtMostOnce" ? 0 : pageSize);
        Assert.All(counts.Values, c => Assert.InRange(c, 1, 2));
    }

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task ProducerKilledAfterTheClaimWroteASubscribersPage_AnotherPublishesTheSameIdsAfterTheLease_EachContactPointOnce(string mode)
    {
        // A subscriber's page is written in the claim's transaction (FanOut:InClaim) and published after its commit: killed in
        // between, the job waits under the claim's lease with its ids committed, and the next producer publishes those.
        await TestDatabase.CleanAsync();
        await FanOutProbe.SeedTopicAsync(3);
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"""
                INSERT INTO {TestDatabase.Schema}.contact_point (subscriber_id, channel, address)
                SELECT id, 'email', 'user-2.work@example.com' FROM {TestDatabase.Schema}.subscriber WHERE external_id = 'user-2'
                """);
        }

        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToSubscriber("user-2", "Hello", "Hi.", AudienceChannels.Email));
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum);
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode));
        await using (var doomed = WorkerProcess.Start("Producer", broker, ("FanOut:LeaseTime", "00:00:02"), TestHooks,
                         ("Faults:KillAt", "after-claim-fan-out:1")))
        {
            await Eventually.WaitAsync(() => Task.FromResult(doomed.HasExited), exited => exited, Patience, "the producer killed itself");
            Assert.NotEqual(0, await doomed.WaitForExitAsync(TimeSpan.FromSeconds(10)));
        }

        Assert.Equal(FanOutOutcomes.Running, (await FanOutProbe.JobAsync(parent, 1)).State);
        var written = (await FanOutProbe.PublishedIdsAsync(parent)).Order().ToList();
        Assert.Equal(2, written.Count);

        await using var survivor = WorkerProcess.Start("Producer", broker, ("FanOut:LeaseTime", "00:00:02"));
        await survivor.WaitWhileRunningAsync(() => FanOutProbe.JobAsync(parent, 1), j => j.State == FanOutOutcomes.Done, Patience, "the fan-out resumed and done");
        Assert.Equal(written, (await FanOutProbe.PublishedIdsAsync(parent)).Order());
        await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId()), c => written.All(c.ContainsKey), Patience, "both deliveries at smtp-sink");
        Assert.Equal(written.Select(id => (id, 1)), sink.CountByNotificationId().Select(c => (c.Key, c.Value)).Order());
    }

    [Fact]
    public async Task SubscriberUnsubscribesBetweenPages_NotSent_TheOthersOnce()
    {
        await TestDatabase.CleanAsync();
        await FanOutProbe.SeedTopicAsync(6);
        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("everyone", "Hello", "Hi.", AudienceChannels.Email));
        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum);
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);

        // A producer that dies after its first page of 3: the job waits under its lease while the fifth subscriber leaves.
        await using (var doomed = WorkerProcess.Start("Producer", broker, ("FanOut:PageSize", "3"), ("FanOut:LeaseTime", "00:00:02"), TestHooks,
                         ("Faults:KillAt", "after-fan-out-page:1")))
        {
            await Eventually.WaitAsync(() => Task.FromResult(doomed.HasExited), exited => exited, Patience, "the producer killed itself");
        }

        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"""
                DELETE FROM {TestDatabase.Schema}.subscription
                WHERE subscriber_id = (SELECT id FROM {TestDatabase.Schema}.subscriber WHERE external_id = 'user-5')
                """);
        }

        await using var survivor = WorkerProcess.Start("Producer", broker, ("FanOut:PageSize", "3"), ("FanOut:LeaseTime", "00:00:02"));
        await survivor.WaitWhileRunningAsync(() => FanOutProbe.JobAsync(parent, 3), j => j.State == FanOutOutcomes.Done, Patience, "the fan-out done");
        var addresses = (await FanOutProbe.PublishedAddressesAsync(parent)).Order().ToList();
        Assert.Equal(["user-1@example.com", "user-2@example.com", "user-3@example.com", "user-4@example.com", "user-6@example.com"], addresses);
        var ids = await FanOutProbe.PublishedIdsAsync(parent);
        await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId()), c => ids.All(c.ContainsKey), Patience, "every delivery at smtp-sink");
        Assert.Equal(ids.Order(), sink.CountByNotificationId().Keys.Order());
    }

    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task RegistryDatabaseUnreachableMidFanOut_ProducerWaitsAndResumes_EveryContactPointOnce(string mode)
    {
        // The producer reaches PostgreSQL through a proxy that cuts its connections and refuses new ones for the outage
        // (NOTIFICATIONS_FANOUT_OUTAGE_SECONDS, default 8; the row is 30), past its lease: nobody else holds the job,
        // so it goes on with it.
        int outageSeconds = int.TryParse(Environment.GetEnvironmentVariable("NOTIFICATIONS_FANOUT_OUTAGE_SECONDS"), CultureInfo.InvariantCulture, out int o) ? o : 8;
        const int subscribers = 4000;
        await TestDatabase.CleanAsync();
        await FanOutProbe.SeedTopicAsync(subscribers);
        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("everyone", "Hello", "Hi.", AudienceChannels.Email));
        var direct = new Npgsql.NpgsqlConnectionStringBuilder(TestRoles.ConnectionString(DatabaseRole.Producer));
        await using var proxy = Chaos.BlackholeProxy.Start(direct.Port);
        string viaProxy = new Npgsql.NpgsqlConnectionStringBuilder(direct.ConnectionString) { Host = "127.0.0.1", Port = proxy.Port }.ConnectionString;

        await using var broker = await TestBroker.CreateAsync(queueType: RabbitQueueType.Quorum);
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode));
        await using (await WorkerHost.StartProducerAsync(broker, ("Database:ConnectionString", viaProxy), ("FanOut:PageSize", "100"),
                         ("FanOut:LeaseTime", "00:00:02"), ("Producer:MaxErrorBackoff", "00:00:02")))
        {
            await Eventually.WaitAsync(() => FanOutProbe.JobAsync(parent, 100), j => j.CursorPages >= 8, Patience, "a fifth of the topic fanned out");
            proxy.Refuse();
            await Task.Delay(TimeSpan.FromSeconds(outageSeconds));
            var (state, pagesDuringOutage) = await FanOutProbe.JobAsync(parent, 100);
            Assert.Equal(FanOutOutcomes.Running, state);
            proxy.Restore();
            await Eventually.WaitAsync(() => FanOutProbe.JobAsync(parent, 100), j => j.State == FanOutOutcomes.Done, Patience, "the fan-out resumed and done");
            Assert.InRange(pagesDuringOutage, 8, subscribers / 100 - 1);
        }

        var ids = await FanOutProbe.PublishedIdsAsync(parent);
        Assert.Equal(subscribers, ids.Count);
        await Eventually.WaitAsync(() => Task.FromResult(sink.CountByNotificationId()), c => ids.All(c.ContainsKey), Patience, "every delivery at smtp-sink");
        var counts = sink.CountByNotificationId();
        Assert.Empty(counts.Keys.Except(ids));
        int twice = counts.Values.Count(c => c > 1);
        output.WriteLine(FormattableString.Invariant($"{mode}: {subscribers} subscribers, {outageSeconds} s outage: {counts.Count} delivered, {twice} twice"));
        Assert.InRange(twice, 0, mode == "AtMostOnce" ? 0 : 100);
    }
}
