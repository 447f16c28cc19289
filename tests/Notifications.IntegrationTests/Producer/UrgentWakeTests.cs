using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;

namespace Notifications.IntegrationTests.Producer;

/// <summary>
/// The urgent lane's wake on the real PostgreSQL and broker: db/postgres/019's trigger (opted in here) NOTIFYs, the
/// producer's listener wakes the lane, and its poll (a minute and more here, so only the wake can be quick) stays the safety
/// net. No test times the wake against a tight bound: each waits until the lane is inside a pause of a minute or more
/// (<see cref="UrgentWake.Pause"/>), inserts, and asserts the row published before half that pause was over — by a wake.
/// </summary>
[Collection("services")]
// Measures pace (rates, lanes, latency): scripts/test runs the Pace tests alone, with the machine to themselves.
[Trait("Category", "Pace")]
public sealed class UrgentWakeTests
{
    private static readonly TimeSpan Poll = TimeSpan.FromMinutes(1);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    // Every poll of the urgent lane a minute or more apart: a row published within 30 s was woken for, not polled.
    private static readonly (string, string?)[] LongPoll =
    [
        ("Producer:UrgentPollInterval", "00:01:00"), ("Producer:UrgentMaxPollInterval", "00:01:00"),
        ("Producer:UrgentMaxPollIntervalListening", "00:10:00"),
    ];

    [Fact]
    public async Task Listen_UrgentRowWhileIdleWithLongPoll_PublishedByTheWakeWithinTheLanesPause()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var trigger = await OptedInAsync();
        await using var producer = await StartListeningAsync(broker);
        var wake = producer.Get<UrgentWake>();
        await InLongPauseAsync(wake);

        await InsertUrgentAndWaitPublishedAsync(db, broker, expectedInQueue: 1, "published while the lane was in its minute's pause: not woken");

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
        await InLongPauseAsync(wake);

        Assert.Equal(1, await TerminateListenerAsync());
        // Inserted while no one listens: nothing notifies it, the lane's look at the reconnect must find it (its poll is a
        // minute away).
        var missed = await db.InsertAsync(1, "Reset your password", priority: "urgent");
        await Eventually.WaitAsync(() => Task.FromResult(wake.ListenStarts), n => n == 2, Patience, "the listener listening again");
        await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "the row inserted while disconnected published");
        await InLongPauseAsync(wake);

        await InsertUrgentAndWaitPublishedAsync(db, broker, expectedInQueue: 2, "published after the reconnect while the lane was in its minute's pause: not woken");

        Assert.Single(missed);
    }

    [Fact]
    public async Task Listen_OptionOff_UrgentLanePollsAndPublishes()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var trigger = await OptedInAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker,
            ("Producer:ListenForUrgent", "false"), ("Producer:UrgentMaxPollInterval", "00:00:00.200"), ("Producer:UrgentMaxPollIntervalListening", "00:10:00"));
        await producer.WaitForLogAsync(4404, Patience);   // "Not listening for urgent rows (Producer:ListenForUrgent is off)"

        await InsertUrgentAndWaitPublishedAsync(db, broker, expectedInQueue: 1, "not published");

        Assert.Equal(0, producer.Get<UrgentWake>().ListenStarts);
    }

    [Fact]
    public async Task Listen_NoTriggerAsMigrated_DoesNotListenAndPollsAtShortInterval()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker,
            ("Producer:UrgentPollInterval", "00:00:00.150"), ("Producer:UrgentMaxPollInterval", "00:00:00.200"),
            ("Producer:UrgentMaxPollIntervalListening", "00:10:00"));
        var wake = producer.Get<UrgentWake>();
        await producer.WaitForLogAsync(4403, Patience);   // the listener looked for the trigger and found none (019 creates only its function)

        // The idle lane's pauses: 150 ms, then doubling up to its longest. Not listening that is 200 ms; listening by mistake it
        // would be 300 ms, 600 ms, … up to 10 minutes.
        var pause = await Eventually.WaitAsync(() => Task.FromResult(wake.Pause), p => p is { } length && length != TimeSpan.FromMilliseconds(150),
            Patience, "the idle urgent lane's pause grown to its longest");
        await InsertUrgentAndWaitPublishedAsync(db, broker, expectedInQueue: 1, "the lane did not fall back to UrgentMaxPollInterval");

        Assert.Equal(TimeSpan.FromMilliseconds(200), pause);
        Assert.Equal(0, wake.ListenStarts);
        Assert.False(wake.IsListening);
    }

    private static async Task<WorkerHost> StartListeningAsync(TestBroker broker)
    {
        var producer = await WorkerHost.StartProducerAsync(broker, LongPoll);
        await Eventually.WaitAsync(() => Task.FromResult(producer.Get<UrgentWake>().ListenStarts), n => n == 1, Patience, "the listener listening");
        return producer;
    }

    // The lane is inside a pause of a minute or more: its look at the listener's start (or return) is over, and only a wake
    // (or that minute) ends the pause.
    private static Task InLongPauseAsync(UrgentWake wake) =>
        Eventually.WaitAsync(() => Task.FromResult(wake.Pause), p => p >= Poll, Patience, "the urgent lane in a pause of a minute");

    private static async Task InsertUrgentAndWaitPublishedAsync(TestDatabase db, TestBroker broker, uint expectedInQueue, string otherwise)
    {
        await db.InsertAsync(1, "Reset your password", priority: "urgent");
        try
        {
            await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "urgent row claimed and published");
        }
        catch (TimeoutException ex)
        {
            throw new TimeoutException($"{otherwise}: {ex.Message}", ex);
        }

        await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.UrgentQueue), n => n == expectedInQueue, Patience, "urgent message in its queue");
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
