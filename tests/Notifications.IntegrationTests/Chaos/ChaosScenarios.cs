using System.Text;
using System.Text.RegularExpressions;
using Notifications.Client;
using static Notifications.IntegrationTests.Chaos.ChaosRun;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The fault scenarios of RELIABILITY.md (1-19), each injected mid-run on the real services, the
/// cluster scenarios (20-22: quorum queues on the 3-node cluster of <c>scripts/cluster</c>), and 23: a consumer
/// killed with an envelope half-delivered; 24-25: the relay down from the start, with envelopes; 26: a consumer killed
/// between a hard bounce's suppression insert and the message's dead letter and ack; 27-30: webhook and push rows
/// (<see cref="HttpChaosScenarios"/>); 31-32: what the broker dead-letters on its own (<see cref="DeadLetterChaosScenarios"/>).
/// </summary>
internal static class ChaosScenarios
{
    // The broker's own word for its OS pid: a pgrep for 'beam.smp.*rabbit' also matched the shell running it (whose
    // command line holds the pattern), and stopped or killed that shell instead whenever its pid was the lower one.
    private const string Beam = "rabbitmqctl -q eval 'list_to_integer(os:getpid()).'";

    /// <summary>Scenarios whose fault must not dead-letter anything (on top of the oracle), in both modes.</summary>
    public static readonly IReadOnlySet<int> NoDeadLetters = new HashSet<int>([19, 24, 25, .. HttpChaosScenarios.NoDeadLetters]);

    /// <summary>
    /// What each scenario's fault may rightly end a notification as besides delivered (<see cref="ChaosCauses"/>): 13's 5xx
    /// seconds and 26's refused recipients reject for good (and suppress the address); 31 and 32 are the broker's own dead
    /// letters. No other scenario causes a dead letter: one there (a relay or broker outage given up on) counts as lost. Nor
    /// do the HTTP channels' 27-30: an endpoint down or late, a provider refusing our credentials, is transient and parks
    /// what it turns away (a <c>delivery_limit</c> dead letter of a requeue loop, or a suppression, would be a loss).
    /// </summary>
    public static ChaosCauses CausesOf(int scenario) => scenario switch
    {
        13 or 26 => new(["smtp permanent failure"], Suppresses: true),
        31 => new(["delivery_limit:"]),
        32 => new(["expired:"]),
        _ => ChaosCauses.None,
    };

    /// <summary>Scenarios that run on the 3-node cluster with quorum queues instead of the machine's broker.</summary>
    public static readonly IReadOnlySet<int> OnCluster = new HashSet<int> { 20, 21, 22 };

    private static readonly IReadOnlyDictionary<int, (string Name, Func<ChaosRun, Task> Run)> Email = new Dictionary<int, (string, Func<ChaosRun, Task>)>
    {
        [1] = ("producer SIGKILLed between claim and commit", async run =>
        {
            run.StartConsumer();
            var producer = run.StartProducer(("Producer:BatchSize", "100"));
            await run.WaitClaimedAsync(0.3);
            producer.Kill();
            run.StartProducer();
        }),
        [2] = ("producer killed after confirms, before commit", async run =>
        {
            run.StartConsumer();
            var producer = run.StartProducer(("Faults:KillAt", "before-commit:10"));
            await WaitExitAsync(producer);
            run.StartProducer();
        }),
        [3] = ("business transaction rolled back", async run =>
        {
            run.StartConsumer();
            run.StartProducer();
            for (int i = 0; i < 200; i++)
            {
                await using var connection = await Infrastructure.TestDatabase.OpenAsync();
                await using var transaction = await connection.BeginTransactionAsync();
                run.RolledBack.Add(await NotificationOutbox.EnqueueAsync(transaction, new NewNotification($"ghost{i}@example.com", "never", "never")));
                await transaction.RollbackAsync();
            }
        }),
        [4] = ("broker restarted cleanly", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            await ShellAsync("rabbitmqctl -q stop_app && sleep 3 && rabbitmqctl -q start_app && rabbitmqctl -q await_startup");
        }),
        [5] = ("broker crashed (kill -9)", async run =>
        {
            StartPipeline(run);
            // A container's port mapping does not survive its broker being killed and started again.
            _ = Infrastructure.TestServices.BrokerContainer is null ? 0 : throw new NotSupportedException(
                "Scenario 5 kills the broker's process and starts the service again: it needs the machine's broker (scripts/setup, NOTIFICATIONS_TEST_RABBITMQ set), not a container.");
            await run.WaitReceivedAsync(0.3);
            await ShellAsync($"kill -9 $({Beam}) && sleep 1 && (service rabbitmq-server start >/dev/null 2>&1 || true) && rabbitmqctl -q --timeout 120 await_startup");
        }),
        [6] = ("broker hung (SIGSTOP 10 s)", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            int seconds = OutageSeconds(run, 10);
            if (Infrastructure.TestServices.BrokerContainer is { } container)
            {
                await container.PauseAsync(TimeSpan.FromSeconds(seconds));   // the cgroup freezer: SIGSTOP for the whole container
            }
            else
            {
                await ShellAsync($"pid=$({Beam}); kill -STOP $pid; sleep {seconds}; kill -CONT $pid");
            }
        }),
        [7] = ("connections dropped", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            await ShellAsync($"rabbitmqctl -q close_all_connections -p {ChaosRun.Vhost} 'chaos: connections dropped'");
        }),
        [8] = ("silent network loss (blackhole 12 s)", async run =>
        {
            var proxy = run.Own(BlackholeProxy.Start(run.Broker.Options.Uri.Port));
            string uri = new UriBuilder(run.Broker.Options.Uri) { Port = proxy.Port }.Uri.ToString();
            run.StartConsumer(("RabbitMq:Uri", uri));
            run.StartProducer(("RabbitMq:Uri", uri));
            await run.WaitReceivedAsync(0.3);
            proxy.Blackhole();
            await Task.Delay(TimeSpan.FromSeconds(OutageSeconds(run, 12)));
            proxy.Restore();
        }),
        [9] = ("consumer SIGKILLed with a full prefetch window", async run =>
        {
            run.StartProducer();
            var victim = run.StartConsumer();
            run.StartConsumer();
            await run.WaitReceivedAsync(0.3);
            victim.Kill();
            run.Killed(victim);
        }),
        [10] = ("consumer killed between SMTP 250 and ack", async run =>
        {
            run.StartProducer();
            var victim = run.StartConsumer(("Faults:KillAt", "after-send:2000"));
            await WaitExitAsync(victim);
            run.Killed(victim);
            run.StartConsumer();
        }),
        [11] = ("consumer killed between ack and send", async run =>
        {
            run.StartProducer();
            if (run.Mode == "AtLeastOnce")
            {
                // At least once acks after the send: there is no such point; the run has no fault.
                run.Notes.Add("no ack-before-send point in this mode");
                run.StartConsumer();
                return;
            }

            var victim = run.StartConsumer(("Faults:KillAt", "after-ack:2000"));
            await WaitExitAsync(victim);
            run.Killed(victim);
            run.StartConsumer();
        }),
        [12] = ("SMTP connection dropped after DATA", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            // Each message the sink keeps while it drops the connection after the final "." is a send cut after its 250.
            run.RelayCut("relay restarted");
            await run.Sink.RestartAsync("-q .");
            await run.CuttingAsync("relay dropping after DATA for 2 s", () => Task.Delay(TimeSpan.FromSeconds(2)));
            run.RelayCut("relay restarted");
            await run.Sink.RestartAsync();
        }),
        [13] = ("SMTP 4xx for 3 s, then 5xx for 1 s", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            // A 4xx or 5xx reply cuts no send; the three restarts of the relay may.
            run.RelayCut("relay restarted");
            await run.Sink.RestartAsync("-r RCPT");
            await Task.Delay(TimeSpan.FromSeconds(3));
            run.RelayCut("relay restarted");
            await run.Sink.RestartAsync("-f RCPT");
            await Task.Delay(TimeSpan.FromSeconds(1));
            run.RelayCut("relay restarted");
            await run.Sink.RestartAsync();
        }),
        [14] = ("poison messages", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            for (int i = 0; i < 50; i++)
            {
                await run.Broker.PublishRawAsync(Encoding.UTF8.GetBytes($"poison {i} \u0000"), "application/json");
            }

            run.Notes.Add("50 poison messages published");
        }),
        [15] = ("consumer slower than the broker's ack timeout", async run =>
        {
            await ShellAsync("rabbitmqctl -q eval 'application:set_env(rabbit, consumer_timeout, 2000).'");
            try
            {
                StartPipeline(run);
                await run.WaitReceivedAsync(0.3);
                // The broker takes back what a slowed consumer holds: a copy may be sent while the first is cut, and only
                // one that reached the sink while it was slow can have been.
                run.RelayCut("relay restarted");
                await run.Sink.RestartAsync("-w 4");
                await run.CuttingAsync("relay slower than the ack timeout for 8 s", () => Task.Delay(TimeSpan.FromSeconds(8)));
                run.RelayCut("relay restarted");
                await run.Sink.RestartAsync();
            }
            finally
            {
                await ShellAsync("rabbitmqctl -q eval 'application:set_env(rabbit, consumer_timeout, 1800000).'");
            }
        }),
        [16] = ("unroutable publish (work queue unbound)", async run =>
        {
            StartPipeline(run);
            await run.WaitClaimedAsync(0.2);
            await run.Broker.UnbindWorkQueueAsync();
        }),
        [17] = ("broker flow control (memory alarm 5 s)", async run =>
        {
            run.StartConsumer();
            run.StartProducer(("Producer:PublishTimeout", "00:00:05"));
            await run.WaitReceivedAsync(0.3);
            try
            {
                await ShellAsync("rabbitmqctl -q set_vm_memory_high_watermark 0.0000001");
                await Task.Delay(TimeSpan.FromSeconds(5));
            }
            finally
            {
                await ShellAsync("rabbitmqctl -q set_vm_memory_high_watermark 0.4");
            }
        }),
        [18] = ("two producers competing", async run =>
        {
            run.StartConsumer();
            run.StartProducer(("Producer:BatchSize", "100"));
            run.StartProducer(("Producer:BatchSize", "100"));
            await Task.CompletedTask;
        }),
        [19] = ("relay down for 5 minutes", async run =>
        {
            // 20 times the 15 s all retry delays add up to: only the relay breaker keeps it from dead-lettering.
            var consumer = run.StartConsumer();
            run.StartProducer();
            await run.WaitReceivedAsync(0.3);
            run.RelayCut("relay stopped");
            await run.Sink.StopAsync();
            await Task.Delay(TimeSpan.FromMinutes(5));
            await run.Sink.RestartAsync();
            // The consumer's own account: opened once, closed by itself once the relay was back.
            string output = await Infrastructure.Eventually.WaitAsync(() => Task.FromResult(consumer.Output),
                o => o.Contains("Relay circuit breaker closed", StringComparison.Ordinal), TimeSpan.FromMinutes(1), "relay breaker closed");
            int opened = Regex.Count(output, "Relay circuit breaker opened");
            string openFor = Regex.Match(output, @"Relay circuit breaker closed after ""?([0-9:.]+)""?:").Groups[1].Value;
            run.Notes.Add($"breaker opened {opened}x, open for {openFor[..Math.Min(openFor.Length, 11)]}");
        }),
        [20] = ("cluster: node hosting the quorum queue's leader killed", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            int leader = await Infrastructure.TestCluster.LeaderAsync(run.Broker.Options.Queue);
            await Infrastructure.TestCluster.RunAsync($"kill {leader}");
            await Task.Delay(TimeSpan.FromSeconds(10));
            int next = await Infrastructure.TestCluster.LeaderAsync(run.Broker.Options.Queue);
            await Infrastructure.TestCluster.RunAsync($"start {leader}");
            run.Notes.Add($"leader on node {leader} SIGKILLed, new leader node {next}, node {leader} started again and rejoined");
        }),
        [21] = ("cluster: one node partitioned away (pause_minority)", async run =>
        {
            StartPipeline(run);
            await run.WaitReceivedAsync(0.3);
            int leader = await Infrastructure.TestCluster.LeaderAsync(run.Broker.Options.Queue);
            int pausedBefore = Infrastructure.TestCluster.MinorityPauses(leader);
            await Infrastructure.TestCluster.RunAsync($"partition {leader}");
            try
            {
                // net_ticktime 10 s: both sides notice in 10-15 s; the minority node pauses.
                await Task.Delay(TimeSpan.FromSeconds(25));
                int next = await Infrastructure.TestCluster.LeaderAsync(run.Broker.Options.Queue);
                bool paused = Infrastructure.TestCluster.MinorityPauses(leader) > pausedBefore;
                run.Notes.Add($"leader node {leader} cut off (iptables) for 25 s, {(paused ? "paused itself (minority)" : "DID NOT PAUSE")}, new leader node {next}");
                if (!paused)
                {
                    throw new InvalidOperationException($"node {leader} did not detect the partition: its log has no new minority pause");
                }
            }
            finally
            {
                await Infrastructure.TestCluster.RunAsync("heal");
            }

            // The paused node comes back by itself once it sees the majority again.
            await Infrastructure.Eventually.WaitAsync(() => Infrastructure.TestCluster.RunAsync("status"),
                status => Regex.Count(status, "running; sees \\['notif-q.@localhost','notif-q.@localhost','notif-q.@localhost'\\]") == 3,
                TimeSpan.FromMinutes(2), "the partitioned node back in the cluster");
        }),
        [22] = ("cluster: rolling restart of all three nodes", async run =>
        {
            // A slowed consumer (2 handlers, prefetch 4): the run lasts through all three restarts.
            run.StartConsumer(("Consumer:Handlers", "2"), ("Consumer:Prefetch", "4"));
            run.StartProducer();
            await run.WaitReceivedAsync(0.1);
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var receivedAt = new List<string>();
            for (int node = 1; node <= 3; node++)
            {
                receivedAt.Add($"{100.0 * run.Sink.MessageCount() / run.Count:F0} %");
                await Infrastructure.TestCluster.RunAsync($"restart {node}");
            }

            run.Notes.Add($"nodes 1, 2, 3 restarted one after another in {clock.Elapsed.TotalSeconds:F0} s; received before each: {string.Join(", ", receivedAt)}");
        }),
        [23] = ("consumer killed with an envelope half-delivered", KillMidEnvelopeAsync),
        // The short variant (the test command's) keeps the relay down 30 s: still a breaker probe (15 s after it opened) while down.
        [24] = ("relay down 60 s from the start, envelopes of 50",
            run => RelayDownFromTheStartAsync(run, TimeSpan.FromSeconds(run.Count < DefaultCount ? 30 : 60))),
        [26] = ("consumer killed between the suppression insert and the ack", async run =>
        {
            // Every recipient refused for good (5xx to RCPT TO): each address goes on the suppression list, then its message
            // is dead-lettered and acked. The kill falls between the two for one message; its redelivered copy (and those of
            // the window the victim held) meets a suppressed address: recorded 'suppressed', never sent, not lost.
            await run.Sink.RestartAsync("-f RCPT");
            run.StartProducer();
            var victim = run.StartConsumer(("Faults:KillAt", "after-suppress:500"));
            await WaitExitAsync(victim);
            run.Killed(victim);
            run.StartConsumer();
        }),
        [25] = ("relay down 300 s from the start, envelopes of 50", run => RelayDownFromTheStartAsync(run, TimeSpan.FromMinutes(5))),
    };

    /// <summary>Every scenario by number: the email rows' above, the HTTP channels' of <see cref="HttpChaosScenarios"/>, the broker's dead letters'.</summary>
    public static readonly IReadOnlyDictionary<int, (string Name, Func<ChaosRun, Task> Run)> All =
        Email.Concat(HttpChaosScenarios.All).Concat(DeadLetterChaosScenarios.All).ToDictionary(s => s.Key, s => s.Value);

    /// <summary>
    /// Envelopes of 100: the 150th notification handled is the middle of the second envelope, whose ack waits for its last
    /// item. At least once the kill comes after that item's send, at most once after its item-level ack (its mark): either
    /// way the envelope returns to the queue half-delivered, and a second consumer gets it (23 with emails, 29 with webhooks).
    /// </summary>
    public static async Task KillMidEnvelopeAsync(ChaosRun run)
    {
        run.StartProducer(("Producer:EnvelopeSize", "100"));
        string point = run.Mode == "AtLeastOnce" ? "after-send:150" : "after-ack:150";
        var victim = run.StartConsumer(("Faults:KillAt", point), ("Consumer:Handlers", "8"), ("Consumer:Prefetch", "4"));
        await WaitExitAsync(victim);
        run.Killed(victim);
        int atKill = run.Receiver.MessageCount();
        run.Notes.Add($"killed at {point} with envelopes of 100; {atKill} at the {run.Receiver.Name} then");
        if (atKill is < 100 or >= 200)
        {
            throw new InvalidOperationException($"the kill did not land in the second envelope: {atKill} notifications at the {run.Receiver.Name} when it came");
        }

        run.StartConsumer();
    }

    // The relay is down before the first send, so no send is cut after its final "." and no duplicate is excused. While it
    // is down only the breaker's probes run: each takes one message and must leave as many messages queued as it found.
    private static async Task RelayDownFromTheStartAsync(ChaosRun run, TimeSpan outage)
    {
        await run.Sink.StopAsync();
        var down = System.Diagnostics.Stopwatch.StartNew();
        run.StartConsumer();
        run.StartProducer(("Producer:EnvelopeSize", "50"));
        await run.WaitClaimedAsync(1.0);
        await Infrastructure.Eventually.WaitAsync(() => run.Broker.ConsumersAsync(run.Broker.Options.Queue), n => n == 0,
            TimeSpan.FromMinutes(1), "the consumer off the work queue (breaker open)");
        // What was in the handlers when the breaker opened goes back; then the queues hold what the outage holds. Settled is
        // the count once it has not changed for 3 s and nothing is held unacked: a fixed 5 s was too short on a loaded box
        // (load 40-60: the envelopes came back after it, counted as growth, and the row failed with 3,000 of 3,000 delivered once).
        uint settled = await SettledCountAsync(run, TimeSpan.FromSeconds(3), down, outage);
        uint most = settled;
        while (down.Elapsed < outage)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(500));
            most = Math.Max(most, await run.QueuedAsync());
        }

        await run.Sink.RestartAsync();
        run.Notes.Add($"relay down {outage.TotalSeconds:F0} s from the start, envelopes of 50; messages queued while down: {settled} settled, at most {most}");
        if (most > settled)
        {
            run.Violations.Add($"the queues grew from {settled} to {most} messages while the relay was down");
        }
    }

    /// <summary>
    /// The queues' ready count once it stayed the same for <paramref name="quiet"/> and the consumer holds none of their
    /// messages (ready equals ready plus unacked, <see cref="ChaosRun.HeldAsync"/>), or when the outage ends. Stable alone was
    /// not enough at load 35 (three outage processes and two builds): the count stood still for 3 s while handlers still
    /// held envelopes, which came back after it (60 settled, 69 at most: the row failed with 3,000 of 3,000 delivered once).
    /// </summary>
    private static async Task<uint> SettledCountAsync(ChaosRun run, TimeSpan quiet, System.Diagnostics.Stopwatch down, TimeSpan outage)
    {
        uint count = await run.QueuedAsync();
        var unchanged = System.Diagnostics.Stopwatch.StartNew();
        while (down.Elapsed < outage)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(500));
            uint now = await run.QueuedAsync();
            if (now != count)
            {
                count = now;
                unchanged.Restart();
            }
            else if (unchanged.Elapsed >= quiet)
            {
                if (await run.HeldAsync() == now && await run.QueuedAsync() == now)
                {
                    break;
                }

                // HeldAsync is a rabbitmqctl call (an Erlang VM, about 1.3 CPU-s): once per quiet spell, not every half second.
                unchanged.Restart();
            }
        }

        return count;
    }

    // A short variant (fewer rows) keeps a broker outage to 6 s: still three of the workers' 2 s heartbeats,
    // more than the two missed ones after which either side gives the connection up.
    private static int OutageSeconds(ChaosRun run, int seconds)
    {
        if (run.Count < DefaultCount)
        {
            seconds = 6;
            run.Notes.Add($"short variant: {run.Count} rows, outage {seconds} s");
        }

        return seconds;
    }

    private static void StartPipeline(ChaosRun run)
    {
        run.StartConsumer();
        run.StartProducer();
    }
}
