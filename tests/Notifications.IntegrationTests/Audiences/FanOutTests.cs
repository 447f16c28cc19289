using System.Globalization;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Push;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// Notifications for a subscriber and for a topic (issue 29, item 3; docs/fan-out.md), enqueued through the client as the
/// app's role, fanned out by the producer (as its role, pages of 2 subscribers), and checked where they land: smtp-sink and
/// the push server (FCM and APNs over HTTP/2) each got every live contact point once, and nothing for a dead device, an
/// opted-out address or a subscriber without contact points, whose outcomes the tables record.
/// </summary>
[Collection("services")]
public sealed class FanOutTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task SubscriberAndTopic_EveryLiveContactPointOnce_OptedOutDeadAndMissingRecorded()
    {
        await using var world = await PushWorld.StartAsync();
        var devices = await SeedAsync();
        long toAna = await TestDatabase.EnqueueAsync(NewNotification.ToSubscriber(
            "ana", "Your order shipped", "Parcel 42 arrives tomorrow.", AudienceChannels.Email | AudienceChannels.Push, Marker("order")));
        long sale = await TestDatabase.EnqueueAsync(NewNotification.ToTopic(
            "news", "Half price today", "Everything in the shop.", AudienceChannels.Email | AudienceChannels.Push, Marker("sale"))
            with { Category = "marketing", Priority = NotificationPriority.Bulk });
        long nobody = await TestDatabase.EnqueueAsync(NewNotification.ToSubscriber("nobody", "Hello", "Hi.", AudienceChannels.Email));
        long empty = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("quiet", "Hello", "Hi.", AudienceChannels.Push));
        long noTopic = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("no-such-topic", "Hello", "Hi.", AudienceChannels.Push));

        await using var consumer = await world.StartConsumerAsync();
        await using var producer = await WorkerHost.StartProducerAsync(world.Broker, ("FanOut:PageSize", "2"));
        var jobs = await Eventually.WaitAsync(JobsAsync, j => j.Count == 5 && j.All(x => x.State != FanOutOutcomes.Running), Patience, "every job ended");
        var published = await DeliveriesAsync(FanOutOutcomes.Published);
        await Eventually.WaitAsync(() => SentCountAsync(published.Select(d => d.Id)), n => n == published.Count, Patience, "every delivery sent");

        // The jobs: what each audience came to.
        Assert.Equal(
            [
                (toAna, "done", 3L, 0L, 0L, (string?)null),
                (sale, "done", 4L, 1L, 1L, null),
                (nobody, "no_such_audience", 0L, 0L, 0L, "no subscriber 'nobody'"),
                (empty, "done", 0L, 0L, 0L, null),
                (noTopic, "no_such_audience", 0L, 0L, 0L, "no topic named 'no-such-topic'"),
            ],
            jobs.Select(j => (j.Id, j.State, j.Published, j.OptedOut, j.NoContact, j.Reason)));

        // Email: Ana's order and sale mails, each once under its delivery's id; Bo opted out of marketing by email.
        var mails = published.Where(d => d.Channel == "email").ToList();
        Assert.Equal([(toAna, "ana@example.com"), (sale, "ana@example.com")], mails.Select(d => (d.ParentId, d.Address)));
        var sink = world.Sink.CountByNotificationId();
        Assert.Equal(mails.Select(d => d.Id).Order(), sink.Keys.Order());
        Assert.All(sink.Values, count => Assert.Equal(1, count));

        // Push: Ana's two live devices twice (order, sale), Bo's once (sale); Ana's dead device never.
        var pushes = world.Server.Log.Requests.Select(r => (r.NotificationId ?? "", r.Provider + ":" + r.Token)).Order().ToList();
        Assert.Equal(
            new[]
            {
                ("order", devices.AnaFcm), ("order", devices.AnaApns),
                ("sale", devices.AnaFcm), ("sale", devices.AnaApns), ("sale", devices.BoFcm),
            }.Order(),
            pushes);
        Assert.DoesNotContain(pushes, p => p.Item2 == devices.AnaDead);

        // Recorded, not sent: Bo's address opted out, Cy without a contact point.
        Assert.Equal([("bo", "email", "bo@example.com")], (await DeliveriesAsync(FanOutOutcomes.OptedOut)).Select(d => (d.Subscriber, d.Channel, d.Address)));
        Assert.Equal([("cy", (string?)null)], (await DeliveriesAsync(FanOutOutcomes.NoContact)).Select(d => (d.Subscriber, d.Channel)));
        Assert.Empty(await world.Database.InOutboxAsync([toAna, sale, nobody, empty, noTopic]));

        // The parents' status and admin show: what the fan-out came to, the deliveries by channel and state; each delivery's own.
        var saleStatus = await Status.StatusProbe.GetAsync(sale);
        Assert.Equal("fanned_out", saleStatus.State);
        Assert.Equal(
            "fanned out to topic:news (email,push): 4 deliveries published, 1 opted out, 1 subscribers without a contact point (scripts/admin show lists them)",
            saleStatus.Detail);
        Assert.Equal(("no_such_audience", "no topic named 'no-such-topic'"), await StateAsync(noTopic));
        Assert.Equal("sent", (await Status.StatusProbe.GetAsync(mails[1].Id)).State);
        var (exit, output, error) = await Operations.AdminRun.InProcessAsync(world.Broker, "", "show", sale.ToString(CultureInfo.InvariantCulture), "--deliveries", "6");
        Assert.True(exit == 0, error);
        Assert.Contains("fanned out", output, StringComparison.Ordinal);
        Assert.Matches(@"deliveries:\s+6\n\s+-\s+no_contact\s+1\n\s+email\s+opted_out\s+1\n\s+email\s+sent\s+1\n\s+push\s+sent\s+3\n", output.ReplaceLineEndings("\n"));
        Assert.Contains("first 6:", output, StringComparison.Ordinal);
        Assert.Matches(@"\d{19}\s+ana\s+email\s+sent\s+ana@example\.com", output);
        var (unknownExit, _, _) = await Operations.AdminRun.InProcessAsync(world.Broker, "", "show", nobody.ToString(CultureInfo.InvariantCulture));
        Assert.Equal(0, unknownExit);
    }

    private static async Task<(string, string?)> StateAsync(long id)
    {
        var status = await Status.StatusProbe.GetAsync(id);
        return (status.State, status.Reason);
    }

    [Fact]
    public async Task PageNotConfirmed_NextHolderAfterTheLease_PublishesTheSameIdsAgain()
    {
        await TestDatabase.CleanAsync();
        await SeedAsync();
        long parent = await TestDatabase.EnqueueAsync(NewNotification.ToTopic("news", "Hello", "Hi.", AudienceChannels.Email));
        await using (var owner = await TestDatabase.OpenAsync())
        {
            // The claim's part, as the producer's claim writes it: the job, the row gone.
            await owner.ExecuteAsync($"""
                INSERT INTO {TestDatabase.Schema}.fanout_job (id, audience, channels, parent)
                SELECT id, recipient, channels, json_build_object('Id', id, 'Recipient', recipient, 'Channel', channel, 'Channels', channels,
                       'Subject', subject, 'Body', body, 'Priority', priority, 'CreatedAt', created_at)::text
                FROM {TestDatabase.Schema}.outbox WHERE id = @parent;
                DELETE FROM {TestDatabase.Schema}.outbox WHERE id = @parent
                """, new { parent });
        }

        await using var dataSource = NpgsqlDataSource.Create(TestRoles.ConnectionString(DatabaseRole.Producer));
        var store = new PostgresFanOutStore(dataSource, new DatabaseOptions
        {
            Provider = DatabaseProvider.Postgres, ConnectionString = TestRoles.ConnectionString(DatabaseRole.Producer), Schema = TestDatabase.Schema,
        });
        var lease = TimeSpan.FromMinutes(1);

        // The first holder writes a page of two and dies before its confirms; while its lease runs, nobody else takes the job.
        var job = await store.LeaseAsync("first", lease, CancellationToken.None);
        Assert.NotNull(job);
        Assert.Equal("Hello", job.Parent.Subject);
        var page = await store.NextPageAsync(job, "first", lease, pageSize: 2, CancellationToken.None);
        Assert.NotNull(page);
        Assert.Equal(["ana@example.com", "bo@example.com"], page.Deliveries.Select(d => d.Address).Order());
        Assert.Null(await store.LeaseAsync("second", lease, CancellationToken.None));

        // Its lease runs out (moved to the past here, not waited for): the next holder gets the same page, the same ids, and
        // the first may no longer move the cursor.
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"UPDATE {TestDatabase.Schema}.fanout_job SET lease_until = now() - interval '1 second'");
        }

        var taken = await store.LeaseAsync("second", lease, CancellationToken.None);
        Assert.NotNull(taken);
        var again = await store.NextPageAsync(taken, "second", lease, pageSize: 2, CancellationToken.None);
        Assert.Equal(page.Deliveries.Select(d => d.Id).Order(), again!.Deliveries.Select(d => d.Id).Order());
        Assert.False(await store.AdvanceAsync(job, page, "first", lease, CancellationToken.None));
        Assert.True(await store.AdvanceAsync(taken, again, "second", lease, CancellationToken.None));
        // A confirmed page advanced twice (a second worker that held the same page): the second is refused, or it would clear a
        // later page's mark and that page would be written again under new ids.
        Assert.False(await store.AdvanceAsync(taken, again, "second", lease, CancellationToken.None));

        // The rest: Cy (no contact point, recorded), the last page; then the job is done, each subscriber once.
        var last = await store.NextPageAsync(taken, "second", lease, pageSize: 2, CancellationToken.None);
        Assert.Empty(last!.Deliveries);
        Assert.True(last.Last);
        Assert.True(await store.AdvanceAsync(taken, last, "second", lease, CancellationToken.None));
        var jobRow = Assert.Single(await JobsAsync());
        Assert.Equal(("done", 2L, 0L, 1L), (jobRow.State, jobRow.Published, jobRow.OptedOut, jobRow.NoContact));
        Assert.Equal(3, (await DeliveriesAsync(FanOutOutcomes.Published)).Count + (await DeliveriesAsync(FanOutOutcomes.NoContact)).Count);
    }

    [Fact]
    public async Task Outbox_AudienceRowsOfTheWrongShapeWrittenAroundTheClient_RefusedByItsChecks()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
        string insert = $"INSERT INTO {TestDatabase.Schema}.outbox (channel, channels, recipient, subject, body) VALUES ";
        foreach (string values in new[]
                 {
                     "('audience', 'email', 'topic:Breaking News', 's', 'b')",
                     "('audience', 'email', 'subscriber:has space', 's', 'b')",
                     "('audience', 'email', 'ana@example.com', 's', 'b')",
                     $"('audience', 'email', 'topic:{new string('n', 129)}', 's', 'b')",
                     "('audience', 'sms', 'topic:news', 's', 'b')",
                     "('audience', 'push,email', 'topic:news', 's', 'b')",
                     "('audience', NULL, 'topic:news', 's', 'b')",
                     "('email', 'email', 'ana@example.com', 's', 'b')",
                 })
        {
            var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(insert + values));
            Assert.Equal(PostgresErrorCodes.CheckViolation, refused.SqlState);
        }

        Assert.Equal(1, await connection.ExecuteAsync(insert + "('audience', 'email,push', 'topic:news', 's', 'b')"));
    }

    // Categories marketing and security (critical). Ana: email, an FCM and an APNs device, and a dead FCM device. Bo: email
    // (opted out of marketing by email) and an FCM device. Cy: nothing. Topic news: all three; topic quiet: nobody.
    private static async Task<(string AnaFcm, string AnaApns, string AnaDead, string BoFcm)> SeedAsync()
    {
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.category (name, critical) VALUES ('marketing', false), ('security', true)");
        }

        string anaFcm = PushWorld.NewFcmToken(), anaApns = PushWorld.NewApnsToken(), anaDead = PushWorld.NewFcmToken(), boFcm = PushWorld.NewFcmToken();
        await using (var services = AppRegistry.Services())
        {
            var registry = services.GetRequiredService<ISubscriberRegistry>();
            await AppRegistry.InTransactionAsync(commit: true, async tx =>
            {
                foreach (string id in new[] { "ana", "bo", "cy" })
                {
                    await registry.UpsertSubscriberAsync(tx, new Subscriber(id));
                    await registry.SubscribeAsync(tx, id, "news");
                }

                await registry.AddEmailAsync(tx, "ana", "ana@example.com");
                await registry.AddDeviceAsync(tx, "ana", PushDevice.Fcm(anaFcm));
                await registry.AddDeviceAsync(tx, "ana", PushDevice.Apns(anaApns));
                await registry.AddDeviceAsync(tx, "ana", PushDevice.Fcm(anaDead));
                await registry.AddEmailAsync(tx, "bo", "bo@example.com");
                await registry.AddDeviceAsync(tx, "bo", PushDevice.Fcm(boFcm));
                await registry.SetPreferenceAsync(tx, "bo", "marketing", "email", enabled: false);
                await registry.UpsertSubscriberAsync(tx, new Subscriber("dee"));
                await registry.SubscribeAsync(tx, "dee", "quiet");
                await registry.UnsubscribeAsync(tx, "dee", "quiet");
            });
        }

        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync(
                $"UPDATE {TestDatabase.Schema}.contact_point SET dead_at = now(), dead_reason = 'unregistered' WHERE address = @address",
                new { address = "fcm:" + anaDead });
        }

        return ("fcm:" + anaFcm, "apns:" + anaApns, "fcm:" + anaDead, "fcm:" + boFcm);
    }

    private static Dictionary<string, string> Marker(string marker) => new() { [Infrastructure.Receivers.PushLog.NotificationIdKey] = marker };

    private static async Task<List<JobRow>> JobsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<JobRow>($"""
            SELECT id AS Id, state AS State, published AS Published, opted_out AS OptedOut, no_contact AS NoContact, reason AS Reason
            FROM {TestDatabase.Schema}.fanout_job ORDER BY id
            """)).AsList();
    }

    private static async Task<List<DeliveryRow>> DeliveriesAsync(string outcome)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<DeliveryRow>($"""
            SELECT d.id AS Id, d.parent_id AS ParentId, s.external_id AS Subscriber, d.channel AS Channel, d.address AS Address
            FROM {TestDatabase.Schema}.audience_delivery AS d JOIN {TestDatabase.Schema}.subscriber AS s ON s.id = d.subscriber_id
            WHERE d.outcome = @outcome ORDER BY d.parent_id, s.external_id, d.channel, d.address
            """, new { outcome })).AsList();
    }

    private static async Task<int> SentCountAsync(IEnumerable<long> ids)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<int>(
            $"SELECT count(*) FROM {TestDatabase.Schema}.delivery_log WHERE notification_id = ANY(@ids) AND status = 'sent'", new { ids = ids.ToArray() });
    }

    private sealed record JobRow(long Id, string State, long Published, long OptedOut, long NoContact, string? Reason);

    private sealed record DeliveryRow(long Id, long ParentId, string Subscriber, string? Channel, string? Address);
}
