using Dapper;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.Shared.Retention;

namespace Notifications.IntegrationTests.Status;

/// <summary>The retention cleanup on the real database: old rows only, small batches, locked rows skipped, once per interval across a fleet.</summary>
[Collection("services")]
public sealed class RetentionTests
{
    private static readonly string S = TestDatabase.Schema;
    private const long FirstDeliveryId = Shared.Data.FanOut.FanOutIds.First;

    [Fact]
    public async Task AdminCleanup_SmallBatches_DeletesOnlyOldSentAndDeadLetterRows_StatusThenUnknown()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = await IssuedIdsAsync(db, 40);
        await SeedLogAsync(ids[..25], "sent", ageDays: 40);
        await SeedLogAsync(ids[25..30], "sent", ageDays: 0);
        await SeedLogAsync(ids[30..32], "sending", ageDays: 40);
        await SeedDeadLettersAsync(ids[32..39], ageDays: 40);
        await SeedDeadLettersAsync(ids[39..40], ageDays: 0);
        await SeedDeadLettersAsync([null], ageDays: 40);
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"""
                INSERT INTO {S}.idempotency_key (idempotency_key, notification_id, created_at)
                SELECT 'key-' || g, g, now() - make_interval(days => CASE WHEN g <= 5 THEN 40 ELSE 0 END) FROM generate_series(1, 6) AS g
                """);
        }

        var (exit, output, error) = await AdminRun.InProcessAsync(
            broker, new Dictionary<string, string?> { ["Retention:BatchSize"] = "4", ["Retention:BatchPause"] = "00:00:00" }, "", "cleanup");

        Assert.True(exit == 0, error);
        // 25 log rows: 6 full batches and a short one; 8 dead-letter rows: 2 full batches and an empty one; 5 keys: 1 full, 1 short;
        // no fan-out, no live row and no outcome event: an empty batch each for the deliveries, the jobs, the live rows and the events.
        Assert.Contains(
            "Deleted 25 delivery-log row(s) older than 30.00:00:00, 8 dead-letter row(s) older than 30.00:00:00, 5 idempotency key(s) older than 30.00:00:00, "
            + "0 finished fan-out(s) with 0 delivery row(s) older than 30.00:00:00, 0 live notification(s) expired unacked longer ago than 30.00:00:00 "
            + "and 0 outcome event(s) made before then (16 batch(es) of at most 4)",
            output, StringComparison.Ordinal);
        Assert.Equal(1, await CountAsync("idempotency_key"));
        Assert.Equal(5, await CountAsync("delivery_log WHERE status = 'sent'"));
        Assert.Equal(2, await CountAsync("delivery_log WHERE status = 'sending'"));
        Assert.Equal([ids[39]], (await StatusProbe.DeadLetterRowsAsync()).Select(r => r.Id));

        var cleaned = await StatusProbe.GetAsync(ids[0]);
        Assert.Equal("unknown", cleaned.State);
        Assert.Contains("removed by the retention cleanup", cleaned.Detail, StringComparison.Ordinal);
        Assert.Equal("sent", (await StatusProbe.GetAsync(ids[25])).State);
        Assert.Equal("in_flight", (await StatusProbe.GetAsync(ids[30])).State);
        Assert.Equal("dead_lettered", (await StatusProbe.GetAsync(ids[39])).State);
    }

    [Fact]
    public async Task Cleanup_OldBouncedNotification_ItsOutcomesGoWithItsDeliveryLogRow()
    {
        var db = await TestDatabase.CleanAsync();
        var ids = await IssuedIdsAsync(db, 2);
        await SeedLogAsync([ids[0]], "sent", ageDays: 40);
        await SeedLogAsync([ids[1]], "sent", ageDays: 1);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {S}.notification_outcome (notification_id, outcome, recipient, status) SELECT unnest(@Ids), 'bounced', 'gone@example.com', '5.1.1'",
            new { Ids = ids.ToArray() });
        var cleanup = new RetentionCleanup(StatusProbe.Retention(), new RetentionOptions(), TimeProvider.System, NullLogger<RetentionCleanup>.Instance);

        await cleanup.RunAsync(CancellationToken.None);

        Assert.Equal([ids[1]], await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.notification_outcome"));
    }

    [Fact]
    public async Task Cleanup_OldSentAndDeadLettered_TheirFailedAttemptsGoWithThem_RecentOnesStay()
    {
        var db = await TestDatabase.CleanAsync();
        var ids = await IssuedIdsAsync(db, 3);
        await SeedLogAsync([ids[0]], "sent", ageDays: 40);
        await SeedDeadLettersAsync([ids[1]], ageDays: 40);
        await SeedLogAsync([ids[2]], "sent", ageDays: 1);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {S}.delivery_attempt (notification_id, attempt, reason) SELECT unnest(@Ids), 1, 'smtp transient failure 450'",
            new { Ids = ids.ToArray() });
        var cleanup = new RetentionCleanup(StatusProbe.Retention(), new RetentionOptions(), TimeProvider.System, NullLogger<RetentionCleanup>.Instance);

        await cleanup.RunAsync(CancellationToken.None);

        Assert.Equal([ids[2]], await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.delivery_attempt"));
    }

    [Fact]
    public async Task Cleanup_RowLockedByAnotherTransaction_IsSkippedNotWaitedFor()
    {
        var db = await TestDatabase.CleanAsync();
        var ids = await IssuedIdsAsync(db, 3);
        await SeedLogAsync(ids, "sent", ageDays: 40);
        await SeedDeadLettersAsync(ids, ageDays: 40);
        var cleanup = new RetentionCleanup(StatusProbe.Retention(), new RetentionOptions { BatchSize = 2 }, TimeProvider.System, NullLogger<RetentionCleanup>.Instance);
        await using var connection = await TestDatabase.OpenAsync();
        await using (var locker = await connection.BeginTransactionAsync())
        {
            // A consumer's statement holding these rows (e.g. a duplicate's record).
            await connection.ExecuteAsync($"SELECT 1 FROM {S}.delivery_log WHERE notification_id = @id FOR UPDATE", new { id = ids[0] }, locker);
            await connection.ExecuteAsync($"SELECT 1 FROM {S}.dead_letter WHERE notification_id = @id FOR UPDATE", new { id = ids[1] }, locker);

            using var notBlocked = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            var result = await cleanup.RunAsync(notBlocked.Token);

            Assert.Equal((2L, 2L), (result.DeliveryLogRows, result.DeadLetterRows));
            await locker.CommitAsync();
        }

        Assert.Equal([ids[0]], await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.delivery_log"));
        Assert.Equal([ids[1]], (await StatusProbe.DeadLetterRowsAsync()).Select(r => r.Id!.Value));
        var next = await cleanup.RunAsync(CancellationToken.None);
        Assert.Equal((1L, 1L), (next.DeliveryLogRows, next.DeadLetterRows));
    }

    [Fact]
    public async Task TwoConsumers_RetentionService_OneRunPerIntervalForTheWholeFleet()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var ids = await IssuedIdsAsync(db, 20);
        await SeedLogAsync(ids[..10], "sent", ageDays: 40);
        (string, string?)[] settings = [("Retention:Interval", "00:10:00"), ("Retention:BatchSize", "3")];

        await using var first = await WorkerHost.StartConsumerAsync(broker, sink, settings);
        await using var second = await WorkerHost.StartConsumerAsync(broker, sink, settings);
        await Eventually.WaitAsync(() => CountAsync("delivery_log"), n => n == 0, TimeSpan.FromSeconds(30), "old rows cleaned up");

        var lease = await LeaseAsync();
        Assert.NotNull(lease.Holder);
        Assert.InRange(lease.Until, DateTimeOffset.UtcNow.AddMinutes(9), DateTimeOffset.UtcNow.AddMinutes(11));
        Assert.False(await StatusProbe.Retention().TryLeaseAsync("someone-else", TimeSpan.FromMinutes(1), CancellationToken.None));

        // Within the interval neither consumer runs again, though both are up and old rows are there.
        await SeedLogAsync(ids[10..], "sent", ageDays: 40);
        await Task.Delay(TimeSpan.FromSeconds(3));
        Assert.Equal(10, await CountAsync("delivery_log"));
        Assert.Equal(lease, await LeaseAsync());
    }

    [Fact]
    public async Task AdminCleanup_OldFanOutDeliveryRecords_WatermarkStaysAmongOutboxIds_ClaimedRowStillInFlight()
    {
        // A fan-out delivery's id is 2^62 or more (docs/fan-out.md): its deleted record must not raise the watermark above
        // the outbox's ids, or every claimed row without a record yet would answer "removed by the retention cleanup".
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = await IssuedIdsAsync(db, 2);
        await SeedLogAsync([ids[0], FirstDeliveryId + 7], "sent", ageDays: 40);
        await SeedDeadLettersAsync([FirstDeliveryId + 8], ageDays: 40);

        var (exit, _, error) = await AdminRun.InProcessAsync(broker, new Dictionary<string, string?>(), "", "cleanup");

        Assert.True(exit == 0, error);
        Assert.Equal(0, await CountAsync("delivery_log"));
        Assert.Equal("unknown", (await StatusProbe.GetAsync(ids[0])).State);
        Assert.Equal("in_flight", (await StatusProbe.GetAsync(ids[1])).State);
    }

    [Fact]
    public async Task AdminCleanup_FinishedFanOutsOlderThanTheLog_GoWithTheirDeliveries_InBatches_RunningAndRecentStay()
    {
        // A topic's fan-out leaves a job and a delivery row per device (docs/fan-out.md): kept as long as the delivery log's
        // records, then removed a batch at a time (a million-device job's rows are not one transaction), the job last.
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = await IssuedIdsAsync(db, 4);
        await SeedFanOutAsync(ids[0], "done", ageDays: 40, deliveries: 9);
        await SeedFanOutAsync(ids[1], "no_such_audience", ageDays: 40, deliveries: 0);
        await SeedFanOutAsync(ids[2], "done", ageDays: 0, deliveries: 2);
        await SeedFanOutAsync(ids[3], "running", ageDays: 40, deliveries: 3);

        var (exit, output, error) = await AdminRun.InProcessAsync(
            broker, new Dictionary<string, string?> { ["Retention:BatchSize"] = "4", ["Retention:BatchPause"] = "00:00:00" }, "", "cleanup");

        Assert.True(exit == 0, error);
        Assert.Contains("2 finished fan-out(s) with 9 delivery row(s)", output, StringComparison.Ordinal);
        Assert.Equal([ids[2], ids[3]], await ColumnAsync("SELECT id FROM {0}.fanout_job ORDER BY id"));
        Assert.Equal([ids[2], ids[2], ids[3], ids[3], ids[3]], await ColumnAsync("SELECT parent_id FROM {0}.audience_delivery ORDER BY parent_id"));
        var cleaned = await StatusProbe.GetAsync(ids[0]);
        Assert.Equal("unknown", cleaned.State);
        Assert.Contains("removed by the retention cleanup", cleaned.Detail, StringComparison.Ordinal);
        Assert.Equal("fanned_out", (await StatusProbe.GetAsync(ids[2])).State);
        Assert.Equal("in_flight", (await StatusProbe.GetAsync(ids[3])).State);
    }

    [Fact]
    public async Task AdminCleanup_LiveRowsExpiredLongerThanTheLog_Go_OthersStay_LiveAckedRecordsGoLikeSentOnes()
    {
        // A live notification nobody acked stays pending until it expires (docs/live.md), then as long as the delivery log's
        // record of it; the record of a push copy not sent because its live one was acked ('live_acked') goes with the others.
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"""
                INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, expires_at) VALUES
                    (1, 'ana', 'old', now() - interval '40 days'), (2, 'ana', 'old', now() - interval '31 days'),
                    (3, 'ana', 'expired lately', now() - interval '1 day'), (4, 'bo', 'pending', now() + interval '1 hour');
                INSERT INTO {S}.topic (name) VALUES ('riders');
                INSERT INTO {S}.live_broadcast (notification_id, topic_id, subject, expires_at)
                SELECT n, id, 'broadcast', now() - make_interval(days => d) FROM {S}.topic, (VALUES (10, 40), (11, 1)) AS b (n, d);
                INSERT INTO {S}.live_broadcast_receipt (notification_id, subscriber_id, acked_at) VALUES (10, 'ana', now()), (11, 'ana', now());
                """);
        }

        await SeedLogAsync([FirstDeliveryId + 1], "live_acked", ageDays: 40);
        await SeedLogAsync([FirstDeliveryId + 2], "live_acked", ageDays: 1);

        var (exit, output, error) = await AdminRun.InProcessAsync(
            broker, new Dictionary<string, string?> { ["Retention:BatchSize"] = "1", ["Retention:BatchPause"] = "00:00:00" }, "", "cleanup");

        Assert.True(exit == 0, error);
        // An expired broadcast (042) goes with them, its receipts with it.
        Assert.Contains("3 live notification(s) expired unacked", output, StringComparison.Ordinal);
        long[] live = await ColumnAsync("SELECT notification_id FROM {0}.live_pending ORDER BY notification_id");
        long[] log = await ColumnAsync("SELECT notification_id FROM {0}.delivery_log");
        Assert.Equal([3L, 4L], live);
        long[] broadcasts = await ColumnAsync("SELECT notification_id FROM {0}.live_broadcast");
        long[] receipts = await ColumnAsync("SELECT notification_id FROM {0}.live_broadcast_receipt");
        Assert.Equal([11L], broadcasts);
        Assert.Equal([11L], receipts);
        Assert.Equal([FirstDeliveryId + 2], log);
    }

    [Fact]
    public async Task AdminCleanup_OutcomeEventsMadeLongerAgoThanTheLog_Go_InBatches_RecentOnesStay()
    {
        // An outcome event's row (its once-key, docs/outcome-events.md) lives as long as the delivery log's records.
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"""
                INSERT INTO {S}.outcome_event (notification_id, endpoint, event_type, event_id, created_at) VALUES
                    (1, 'app-events', 'notification.delivered', 11, now() - interval '40 days'),
                    (1, 'app-events', 'notification.bounced', 12, now() - interval '31 days'),
                    (2, 'app-events', 'notification.delivered', 13, now() - interval '31 days'),
                    (3, 'app-events', 'notification.delivered', 14, now() - interval '1 day')
                """);
        }

        var (exit, output, error) = await AdminRun.InProcessAsync(
            broker, new Dictionary<string, string?> { ["Retention:BatchSize"] = "2", ["Retention:BatchPause"] = "00:00:00" }, "", "cleanup");

        Assert.True(exit == 0, error);
        Assert.Contains("3 outcome event(s) made before then", output, StringComparison.Ordinal);
        long[] left = await ColumnAsync("SELECT event_id FROM {0}.outcome_event");
        Assert.Equal([14L], left);
    }

    private static async Task SeedFanOutAsync(long id, string state, int ageDays, int deliveries)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            INSERT INTO {S}.fanout_job (id, audience, channels, parent, state, created_at, finished_at)
            VALUES (@id, 'topic:news', 'push', @parent, @state, now() - make_interval(days => @ageDays),
                    CASE WHEN @state = 'running' THEN NULL ELSE now() - make_interval(days => @ageDays) END);
            INSERT INTO {S}.audience_delivery (parent_id, subscriber_id, outcome)
            SELECT @id, g, 'no_contact' FROM generate_series(1, @deliveries) AS g
            """, new { id, state, ageDays, deliveries, parent = "{}" });
    }

    private static async Task<long[]> ColumnAsync(string sql)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return [.. await connection.QueryAsync<long>(string.Format(System.Globalization.CultureInfo.InvariantCulture, sql, S))];
    }

    // Ids issued by the outbox identity (so the status knows them), their rows gone from the outbox.
    private static async Task<long[]> IssuedIdsAsync(TestDatabase db, int count)
    {
        var ids = await db.InsertAsync(count);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {S}.outbox");
        return [.. ids];
    }

    private static async Task SeedLogAsync(long[] ids, string status, int ageDays)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {S}.delivery_log (notification_id, status, updated_at, attempts) SELECT unnest(@ids), @status, now() - make_interval(days => @ageDays), 1",
            new { ids, status, ageDays });
    }

    private static async Task SeedDeadLettersAsync(long?[] ids, int ageDays)
    {
        await using var connection = await TestDatabase.OpenAsync();
        foreach (long? id in ids)
        {
            await connection.ExecuteAsync(
                $"INSERT INTO {S}.dead_letter (notification_id, reason, attempts, dead_lettered_at) VALUES (@id, 'invalid recipient: empty', 1, now() - make_interval(days => @ageDays))",
                new { id, ageDays });
        }
    }

    private static Task SeedDeadLettersAsync(long[] ids, int ageDays) => SeedDeadLettersAsync(ids.Select(i => (long?)i).ToArray(), ageDays);

    private static async Task<long> CountAsync(string from)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {S}.{from}");
    }

    private static async Task<(string? Holder, DateTimeOffset Until)> LeaseAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        var (holder, until) = await connection.QuerySingleAsync<(string?, DateTime)>($"SELECT holder, lease_until FROM {S}.retention WHERE job = 'cleanup'");
        return (holder, new DateTimeOffset(DateTime.SpecifyKind(until, DateTimeKind.Utc)));
    }
}
