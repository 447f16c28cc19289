using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// Each role's own code path works as that role (db/postgres/repeatable/90_roles.sql): the app enqueues (plain and with an
/// idempotency key) and asks the status; the producer and consumer deliver end to end; the admin tool shows,
/// reports and cleans up. Checked where the effects land: the SMTP server, the delivery log, the outbox.
/// </summary>
[Collection("services")]
public sealed class DatabaseRoleWorkTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Enqueue_AsAppRole_InsertsOnceAndAnswersStatusWithoutReadingTheLog()
    {
        var db = await TestDatabase.CleanAsync();
        var keyed = new NewNotification("ada@example.com", "Welcome", "hello") { IdempotencyKey = "role-app-ada" };

        long plain = await TestDatabase.EnqueueAsync(new NewNotification("bob@example.com", "Hi", "hello"));
        long first = await TestDatabase.EnqueueAsync(keyed);
        long again = await TestDatabase.EnqueueAsync(keyed);
        await using var app = await TestDatabase.OpenAsync(DatabaseRole.App);
        string state = await app.QuerySingleAsync<string>($"SELECT state FROM {TestDatabase.Schema}.notification_status(@first)", new { first });

        Assert.Equal(first, again);
        Assert.NotEqual(plain, first);
        Assert.Equal(2, await db.CountAsync("outbox"));
        Assert.Equal("waiting", state);
    }

    [Fact]
    public async Task Pipeline_EveryWorkerAsItsRole_DeliversEndToEndAndAdminShowsSent()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(200);   // as the app

        await using (var consumer = await WorkerHost.StartConsumerAsync(broker, sink))
        await using (var producer = await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(ids.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
        }

        var (showExit, shown, showError) = await AdminRun.InProcessAsync(broker, "", "show", ids[0].ToString(System.Globalization.CultureInfo.InvariantCulture));
        var (cleanupExit, _, cleanupError) = await AdminRun.InProcessAsync(broker, "", "cleanup");
        var (statusExit, _, statusError) = await AdminRun.InProcessAsync(broker, "", "status");

        Assert.Equal(ids.Count, sink.CountByNotificationId().Count);
        Assert.Equal(0, await db.CountAsync("outbox"));
        Assert.True(showExit == 0, showError);
        Assert.Contains("state:       sent", shown, StringComparison.Ordinal);
        Assert.True(cleanupExit == 0, cleanupError);
        Assert.True(statusExit == 0, statusError);
    }
}
