using System.Diagnostics;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;

namespace Notifications.IntegrationTests.Producer;

/// <summary>
/// The urgent lane's wake on the real PostgreSQL and broker: db/postgres/019's trigger (opted in here) NOTIFYs, the
/// producer's listener wakes the lane, and its poll (set to 30 s here, so only the wake can be fast) stays the safety net.
/// </summary>
[Collection("services")]
public sealed class UrgentWakeTests
{
    private static readonly TimeSpan WakeBound = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    // Every poll of the urgent lane 30 s apart: a row published within a second was woken for, not polled.
    private static readonly (string, string?)[] LongPoll =
    [
        ("Producer:UrgentPollInterval", "00:00:30"), ("Producer:UrgentMaxPollInterval", "00:00:30"),
        ("Producer:UrgentMaxPollIntervalListening", "00:00:30"),
    ];

    [Fact]
    public async Task Listen_UrgentRowWhileIdleWithLongPoll_PublishedWithinOneSecond()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var trigger = await OptedInAsync();
        await using var producer = await StartListeningAsync(broker);
        var wake = producer.Get<UrgentWake>();
        await Task.Delay(500);  // the lane's look at the listener's start is over; it is in its 30 s pause

        var elapsed = await InsertUrgentAndTimePublishAsync(db, broker, expectedInQueue: 1);

        Assert.True(elapsed <= WakeBound, $"urgent row published after {elapsed.TotalMilliseconds:F0} ms (bound {WakeBound.TotalMilliseconds} ms): not woken");
        Assert.True(wake.IsListening);
    }

    [Fact]
    public async Task Listen_ConnectionTerminated_ReconnectsPublishesRowsMissedAndWakesAgain()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var trigger = await OptedInAsync();
        await using var producer = await StartListeningAsync(broker);
        var wake = producer.Get<UrgentWake>();

        Assert.Equal(1, await TerminateListenerAsync());
        // Inserted while no one listens: nothing notifies it, the lane's look at the reconnect must find it.
        var missed = await db.InsertAsync(1, "Reset your password", priority: "urgent");
        await Eventually.WaitAsync(() => Task.FromResult(wake.ListenStarts), n => n == 2, Patience, "the listener listening again");
        await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, TimeSpan.FromSeconds(5), "the row inserted while disconnected published");
        await Task.Delay(500);

        var elapsed = await InsertUrgentAndTimePublishAsync(db, broker, expectedInQueue: 2);

        Assert.Single(missed);
        Assert.True(elapsed <= WakeBound, $"urgent row published after {elapsed.TotalMilliseconds:F0} ms (bound {WakeBound.TotalMilliseconds} ms) after the reconnect: not woken");
    }

    [Fact]
    public async Task Listen_OptionOff_UrgentLanePollsAndPublishes()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var trigger = await OptedInAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker,
            ("Producer:ListenForUrgent", "false"), ("Producer:UrgentMaxPollInterval", "00:00:00.200"), ("Producer:UrgentMaxPollIntervalListening", "00:00:30"));
        await Task.Delay(500);

        await InsertUrgentAndTimePublishAsync(db, broker, expectedInQueue: 1);

        Assert.Equal(0, producer.Get<UrgentWake>().ListenStarts);
    }

    [Fact]
    public async Task Listen_NoTriggerAsMigrated_DoesNotListenAndPollsAtShortInterval()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker,
            ("Producer:UrgentMaxPollInterval", "00:00:00.200"), ("Producer:UrgentMaxPollIntervalListening", "00:00:30"));
        await Task.Delay(1000);  // the listener has looked for the trigger and found none (019 creates only its function)

        var elapsed = await InsertUrgentAndTimePublishAsync(db, broker, expectedInQueue: 1);

        Assert.Equal(0, producer.Get<UrgentWake>().ListenStarts);
        Assert.True(elapsed <= TimeSpan.FromSeconds(2), $"urgent row published after {elapsed.TotalMilliseconds:F0} ms: the lane did not fall back to UrgentMaxPollInterval");
    }

    private static async Task<WorkerHost> StartListeningAsync(TestBroker broker)
    {
        var producer = await WorkerHost.StartProducerAsync(broker, LongPoll);
        await Eventually.WaitAsync(() => Task.FromResult(producer.Get<UrgentWake>().ListenStarts), n => n == 1, Patience, "the listener listening");
        return producer;
    }

    private static async Task<TimeSpan> InsertUrgentAndTimePublishAsync(TestDatabase db, TestBroker broker, uint expectedInQueue)
    {
        var watch = Stopwatch.StartNew();
        await db.InsertAsync(1, "Reset your password", priority: "urgent");
        await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "urgent row claimed and published");
        var elapsed = watch.Elapsed;
        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.UrgentQueue), n => n == expectedInQueue, Patience, "urgent message in its queue");
        return elapsed;
    }

    private static async Task<int> TerminateListenerAsync()
    {
        // As the producer's own login: only it (or a superuser) may see and end its sessions.
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.Producer);
        return await connection.ExecuteScalarAsync<int>($"""
            SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = 'LISTEN {UrgentListenerService.Channel}'
            """);
    }

    // 019 creates only the trigger's function (opt-in); these tests opt in and leave the schema as migrated.
    private static async Task<IAsyncDisposable> OptedInAsync()
    {
        await SetTriggerAsync(enabled: true);
        return new TriggerReset();
    }

    private static async Task SetTriggerAsync(bool enabled)
    {
        await using var connection = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        await connection.ExecuteAsync(enabled
            ? $"""
              DROP TRIGGER IF EXISTS outbox_notify_urgent ON {s}.outbox;
              CREATE TRIGGER outbox_notify_urgent AFTER INSERT ON {s}.outbox
                  FOR EACH ROW WHEN (NEW.priority = 'urgent') EXECUTE FUNCTION {s}.outbox_notify_urgent();
              """
            : $"DROP TRIGGER IF EXISTS outbox_notify_urgent ON {s}.outbox");
    }

    private sealed class TriggerReset : IAsyncDisposable
    {
        public async ValueTask DisposeAsync() => await SetTriggerAsync(enabled: false);
    }
}
