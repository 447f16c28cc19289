using System.Globalization;
using System.Text.RegularExpressions;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.IntegrationTests.Status;
using static Notifications.IntegrationTests.Chaos.ChaosRun;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The fault matrix's rows for what the broker dead-letters on its own (issue 20), with quorum queues on the machine's broker
/// (the run's own queues in the <c>chaos</c> vhost). 31: a poison envelope — every consumer that takes it crashes before its
/// send (<c>Faults:KillAt before-send:1</c>, one handler, prefetch 1), until the work queue's delivery limit (<see cref="DeliveryLimit"/>)
/// dead-letters it. 32: messages expire in the work queue (a <c>message-ttl</c> policy while nobody consumes; the rows not due yet,
/// <c>not_before</c>, are published after it is lifted). Both: each
/// notification ends as a <c>dead_letter</c> row with the broker's reason, <c>notification_status</c> says dead_lettered, and
/// <c>dead-letters show --id</c> prints its payload; the oracle then counts them as dead-lettered, not lost.
/// </summary>
internal static class DeadLetterChaosScenarios
{
    /// <summary>The delivery limit of the rows' work queues: a poison message dies on its fourth delivery.</summary>
    public const int DeliveryLimit = 3;

    /// <summary>The rows that run with quorum queues on the machine's broker.</summary>
    public static readonly IReadOnlySet<int> Quorum = new HashSet<int> { 31, 32 };

    public static readonly IReadOnlyDictionary<int, (string Name, Func<ChaosRun, Task> Run)> All = new Dictionary<int, (string, Func<ChaosRun, Task>)>
    {
        [31] = ("poison envelope redelivered until the quorum queue's delivery limit", PoisonUntilDeliveryLimitAsync),
        [32] = ("messages expired in the work queue (TTL policy, nobody consuming)", ExpiredInTheQueueAsync),
    };

    private static async Task PoisonUntilDeliveryLimitAsync(ChaosRun run)
    {
        // Everything published first, nobody consuming: the first envelope is at the head, and a returned message is handed out again first.
        run.StartProducer();
        await run.WaitClaimedAsync(1.0);
        int crashes = 0;
        uint envelopes = await run.Broker.CountAsync(run.Broker.Options.Queue);
        while (!await PoisonInTheInboxAsync(run, envelopes) && crashes <= 3 * DeliveryLimit)
        {
            var victim = run.StartConsumer(("Faults:KillAt", "before-send:1"), ("Consumer:Channels", "1"), ("Consumer:Handlers", "1"),
                ("Consumer:Prefetch", "1"), ("Consumer:UrgentHandlers", "1"));
            await WaitExitAsync(victim);
            crashes++;
        }

        run.StartConsumer();
        await RecordedAsync(run, "delivery_limit", $"{crashes} consumers crashed on it (delivery limit {DeliveryLimit})");
    }

    // After a crash the broker returns the poison envelope to the work queue (all <paramref name="envelopes"/> ready again) or, past
    // the delivery limit, dead-letters it into the inbox: wait for one of the two. Asked at once, the inbox could still be empty,
    // and the next victim would record the dead letter instead of crashing on it, and never exit.
    private static async Task<bool> PoisonInTheInboxAsync(ChaosRun run, uint envelopes)
    {
        var broker = run.Broker;
        var (_, inbox) = await Eventually.WaitAsync(
            async () => (await broker.CountAsync(broker.Options.Queue), await broker.CountAsync(broker.Options.DeadLetterInbox)),
            c => c.Item1 == envelopes || c.Item2 > 0, TimeSpan.FromMinutes(1), "the poison envelope back in the work queue or in the inbox");
        return inbox > 0;
    }

    private static async Task ExpiredInTheQueueAsync(ChaosRun run)
    {
        string queue = run.Broker.Options.Queue;
        string policy = $"ttl-{queue}";
        string set = $"rabbitmqctl -q set_policy -p chaos --apply-to queues --priority 100 '{policy}' '^{Regex.Escape(queue)}$'";
        await ShellAsync($"{set} '{{\"message-ttl\":1000}}'");
        try
        {
            // 30 % due now, the rest scheduled an hour ahead (not_before): the producer publishes exactly the due ones, which all
            // expire (nobody consumes); then the policy is lifted and the rest made due.
            int due = run.Count * 3 / 10;
            await using var connection = await TestDatabase.OpenAsync();
            await connection.ExecuteAsync($"""
                UPDATE {TestDatabase.Schema}.outbox SET not_before = now() + interval '1 hour'
                WHERE id NOT IN (SELECT id FROM {TestDatabase.Schema}.outbox ORDER BY id LIMIT @Due)
                """, new { Due = due });
            run.StartProducer();
            await Eventually.WaitAsync(() => run.Db.CountAsync("outbox"), n => n == run.Count - due, TimeSpan.FromMinutes(1), "the due rows claimed");
            await Eventually.WaitAsync(() => run.Broker.CountAsync(queue), n => n == 0, TimeSpan.FromMinutes(1), "the published messages expired");
            // RabbitMQ 3.10 keeps a quorum queue's policy TTL after the policy is cleared (measured: everything published later
            // expired too); a policy with a TTL of an hour lifts it.
            await ShellAsync($"{set} '{{\"message-ttl\":3600000}}'");
            await connection.ExecuteAsync($"UPDATE {TestDatabase.Schema}.outbox SET not_before = NULL");
            run.StartConsumer();
            await RecordedAsync(run, "expired", $"{due} published under a 1 s TTL policy, nobody consuming", expected: due);
        }
        finally
        {
            await ShellAsync($"rabbitmqctl -q clear_policy -p chaos '{policy}'");
        }
    }

    // Waits until the broker's dead letters are recorded and moved (the inbox empty, a row per notification in the dead-letter queue),
    // then asks the status and the admin tool about them; what is wrong goes to the run's violations.
    // An envelope's rows are one statement: 31's poison envelope is recorded whole or not at all.
    private static async Task RecordedAsync(ChaosRun run, string reason, string how, int? expected = null)
    {
        var broker = run.Broker;
        var rows = await Eventually.WaitAsync(async () => (await RowsAsync(reason), await broker.CountAsync(broker.Options.DeadLetterInbox), await broker.CountAsync(broker.Options.DeadLetterQueue)),
            r => (expected is null ? r.Item1.Count > 0 : r.Item1.Count >= expected) && r.Item2 == 0 && r.Item3 >= r.Item1.Count,
            TimeSpan.FromMinutes(2), $"{reason} dead letters recorded and moved");
        var ids = rows.Item1;
        int notDead = 0;
        foreach (long id in ids)
        {
            var status = await StatusProbe.GetAsync(id);
            notDead += status.State != "dead_lettered" || status.Reason?.StartsWith(reason, StringComparison.Ordinal) != true ? 1 : 0;
        }

        var show = await AdminRun.InProcessAsync(broker, "", "dead-letters", "show", "--id", ids[0].ToString(CultureInfo.InvariantCulture));
        bool payload = show.ExitCode == 0 && show.Output.Contains($"\"id\": {ids[0]}", StringComparison.Ordinal)
            && show.Output.Contains($"reason:           {reason}: dead-lettered by the broker", StringComparison.Ordinal);
        run.Notes.Add($"{how}: {ids.Count} rows '{reason}', status dead_lettered {ids.Count - notDead}/{ids.Count}, admin show with payload: {(payload ? "yes" : "NO")}");
        if (notDead > 0)
        {
            run.Violations.Add($"{notDead} notification(s) with a '{reason}' row not answered dead_lettered");
        }

        if (!payload)
        {
            run.Violations.Add($"dead-letters show --id {ids[0]} did not print its payload: {show.ExitCode} {show.Output} {show.Error}");
        }
    }

    private static async Task<List<long>> RowsAsync(string reason)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>(
            $"SELECT notification_id FROM {TestDatabase.Schema}.dead_letter WHERE reason LIKE @Reason AND notification_id IS NOT NULL ORDER BY notification_id",
            new { Reason = reason + ":%" })).AsList();
    }
}
