using System.Diagnostics;
using System.Globalization;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;
using Notifications.Shared.Contract;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// One scenario in one delivery mode: 10,000 committed notifications (fewer in a short variant), worker processes (the real built
/// dlls), a private smtp-sink, a private queue set in the broker's <c>chaos</c> vhost (so connection
/// faults touch nothing else), and helpers to inject faults mid-run and drain. The rows are emails, counted at the sink,
/// webhooks to one endpoint, counted at a Standard Webhooks receiver (<see cref="Webhooks"/>), or pushes to FCM and APNs,
/// counted at the push server (<see cref="Push"/>): the oracle counts at <see cref="Receiver"/>, whichever it is.
/// </summary>
internal sealed class ChaosRun : IAsyncDisposable
{
    public const int DefaultCount = 10_000;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(4);
    private readonly List<WorkerProcess> _workers = [];
    private readonly List<IAsyncDisposable> _owned = [];
    private readonly Dictionary<WorkerProcess, (string Key, string Value)[]> _consumerSettings = [];
    private readonly List<Cut> _cuts = [];
    private int _envelopeSize = new Notifications.Producer.ProducerOptions().EnvelopeSize;
    private readonly Stopwatch _clock = Stopwatch.StartNew();

    private ChaosRun(string mode, TestDatabase db, TestBroker broker, SmtpSink sink, IReadOnlyList<long> committed, WebhookEnd? webhooks = null, PushEnd? push = null)
    {
        Mode = mode;
        Db = db;
        Broker = broker;
        Sink = sink;
        Webhooks = webhooks;
        Push = push;
        Receiver = (IReceivingEnd?)webhooks ?? (IReceivingEnd?)push ?? new SmtpSinkEnd(sink);
        Committed = committed;
        Count = committed.Count;
    }

    /// <summary>How many notifications the run committed: <see cref="DefaultCount"/>, or fewer in a short variant.</summary>
    public int Count { get; }

    public string Mode { get; }

    public TestDatabase Db { get; }

    public TestBroker Broker { get; }

    public SmtpSink Sink { get; }

    /// <summary>The webhook receiver, when the rows are webhooks; else null.</summary>
    public WebhookEnd? Webhooks { get; }

    /// <summary>The push server, when the rows are pushes; else null.</summary>
    public PushEnd? Push { get; }

    /// <summary>Where the run's rows arrive and are counted: the SMTP sink, or the webhook receiver.</summary>
    public IReceivingEnd Receiver { get; }

    public IReadOnlyList<long> Committed { get; private set; }

    /// <summary>Ids whose insert was rolled back: never to be received.</summary>
    public List<long> RolledBack { get; } = [];

    public List<string> Notes { get; } = [];

    /// <summary>Broken promises a scenario saw on its own (beyond the oracle's counts): each fails the verdict.</summary>
    public List<string> Violations { get; } = [];

    public TimeSpan Elapsed => _clock.Elapsed;

    /// <summary>
    /// The fault suite's own vhost (scripts/setup makes <c>chaos</c>): its connection faults touch nothing else. A second test
    /// process running outage tests beside the first names another one in NOTIFICATIONS_TEST_CHAOS_VHOST (scripts/test: <c>test2</c>, <c>test3</c>).
    /// </summary>
    public static string Vhost => Environment.GetEnvironmentVariable("NOTIFICATIONS_TEST_CHAOS_VHOST") is { Length: > 0 } vhost ? vhost : "chaos";

    public static Uri VhostUri => new UriBuilder(TestServices.RabbitMqUri) { Path = "/" + Vhost }.Uri;

    /// <summary>
    /// Seeds the outbox and declares the queues: classic ones on the machine's broker, or — for the cluster
    /// scenarios — quorum queues on the 3-node cluster of <c>scripts/cluster</c> (started when missing), with
    /// the workers given all three nodes as <c>RabbitMq:Endpoints</c>. The rows are of <paramref name="channel"/>: emails;
    /// webhooks to one endpoint registered for a receiver started here; or pushes to a push server started here. <paramref name="quorum"/>:
    /// quorum queues on the machine's broker, with <paramref name="deliveryLimit"/> (the product's unless given).
    /// </summary>
    public static async Task<ChaosRun> StartAsync(
        string mode, bool onCluster = false, int count = DefaultCount, string channel = NotificationChannels.Email, bool quorum = false,
        int? deliveryLimit = null)
    {
        var db = await TestDatabase.CleanAsync();
        // Long enough that a few seconds of SMTP 4xx are retried, not dead-lettered.
        TimeSpan[] delays = [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(4), TimeSpan.FromSeconds(8)];
        if (onCluster)
        {
            await TestCluster.UpAsync();
        }

        var broker = onCluster
            ? await TestBroker.CreateAsync(TestCluster.Uri, delays, Notifications.Shared.Hosting.RabbitQueueType.Quorum, TestCluster.Endpoints)
            : quorum
                ? await TestBroker.CreateAsync(VhostUri, delays, Notifications.Shared.Hosting.RabbitQueueType.Quorum,
                    deliveryLimit: deliveryLimit ?? new Notifications.Shared.Hosting.RabbitMqOptions().DeliveryLimit)
                : await TestBroker.CreateAsync(VhostUri, delays);
        var sink = await SmtpSink.StartAsync();
        switch (channel)
        {
            case NotificationChannels.Webhook:
                var receiver = await WebhookEnd.StartAsync();
                await receiver.RegisterAsync();
                return new ChaosRun(mode, db, broker, sink, await WebhookEnd.InsertAsync(count), webhooks: receiver);
            case NotificationChannels.Push:
                return new ChaosRun(mode, db, broker, sink, await PushEnd.InsertAsync(count), push: await PushEnd.StartAsync());
            default:
                return new ChaosRun(mode, db, broker, sink, await db.InsertAsync(count));
        }
    }

    // The fault suite's workers run in the Production environment (no DOTNET_ENVIRONMENT): their Faults:KillAt needs the switch.
    private static readonly (string Key, string Value) TestHooks = (Shared.Hosting.FaultInjector.TestHooksVariable, "1");

    public WorkerProcess StartProducer(params (string Key, string Value)[] settings)
    {
        _envelopeSize = Math.Max(_envelopeSize, Setting(settings, "Producer:EnvelopeSize", _envelopeSize));
        return Track(WorkerProcess.Start("Producer", Broker, [("Producer:BatchSize", "200"), ("RabbitMq:Heartbeat", "00:00:02"), TestHooks, .. settings]));
    }

    public WorkerProcess StartConsumer(params (string Key, string Value)[] settings)
    {
        (string Key, string Value)[] all =
        [
            ("Consumer:DeliveryMode", Mode), ("Consumer:Handlers", "32"), ("Consumer:Prefetch", "100"),
            ("Smtp:Host", Sink.Host), ("Smtp:Port", Sink.Port.ToString(CultureInfo.InvariantCulture)), ("Smtp:Security", "None"),
            ("Smtp:CommandTimeout", "00:00:05"), ("RabbitMq:Heartbeat", "00:00:02"), TestHooks, .. Push?.Settings() ?? [], .. settings,
        ];
        var consumer = Track(WorkerProcess.Start("Consumer", Broker, all));
        _consumerSettings[consumer] = all;
        return consumer;
    }

    /// <summary>
    /// <paramref name="consumer"/> was killed (from outside or by its own <c>Faults:KillAt</c>): each of its
    /// handlers may have been mid-send, and what it held unacknowledged (channels × prefetch × envelope size) may have been
    /// settled (a dead letter published) with its ack not yet flushed: its redelivered copy publishes that dead letter again.
    /// Both are bounded by what was in flight at the kill (<see cref="JudgeAsync"/>).
    /// </summary>
    public void Killed(WorkerProcess consumer) =>
        _cuts.Add(new(DateTime.UtcNow, SendsUnderWay(consumer), Window(consumer), $"consumer killed: {SendsUnderWay(consumer)} handlers"));

    /// <summary>
    /// The receiving end (SMTP relay, webhook receiver) cut every connection at one instant (restarted or stopped): each running
    /// handler may have been mid-send, no more than were in flight then.
    /// </summary>
    public void RelayCut(string how)
    {
        var handlers = RunningConsumers().Select(SendsUnderWay).ToList();
        _cuts.Add(new(DateTime.UtcNow, handlers.Sum(), 0, handlers.Count == 1 ? $"{how}: {handlers[0]} handlers" : $"{how}: {string.Join(" + ", handlers)} handlers"));
    }

    /// <summary>
    /// Runs <paramref name="cutting"/>, a while in which the receiving end keeps what it is sent without the consumer learning
    /// so (it drops each connection after the final ".", or answers later than the broker lets a consumer hold a message): each
    /// copy that reached it meanwhile may have been cut, and nothing else did (the restarts around it are <see cref="RelayCut"/>s).
    /// </summary>
    public async Task CuttingAsync(string how, Func<Task> cutting)
    {
        var since = DateTime.UtcNow;
        int before = Receiver.MessageCount();
        await cutting();
        int kept = Receiver.MessageCount() - before;
        OutcomesUnknown(kept, $"{how}: {kept} reached the {Receiver.Name} meanwhile", since);
    }

    /// <summary>
    /// <paramref name="sends"/> copies reached the receiving end while the consumer could not learn so (a late answer after its
    /// timeout): each may be sent again at least once, or counted lost at most once. <paramref name="since"/>: when that began
    /// (now if null) — what was in flight then bounds it; a copy cut in the while may have been logged sent before its end.
    /// </summary>
    public void OutcomesUnknown(int sends, string why, DateTime? since = null) => _cuts.Add(new(since ?? DateTime.UtcNow, sends, 0, why));

    /// <summary>Waits until the receiving end (SMTP server or webhook receiver) has received <paramref name="fraction"/> of the notifications.</summary>
    public Task WaitReceivedAsync(double fraction) =>
        Eventually.WaitAsync(() => Task.FromResult(Receiver.MessageCount()), n => n >= fraction * Count, Patience, $"{fraction:P0} received");

    /// <summary>Waits until the producers have taken <paramref name="fraction"/> of the outbox.</summary>
    public Task WaitClaimedAsync(double fraction) =>
        Eventually.WaitAsync(() => Db.CountAsync("outbox"), n => n <= (1 - fraction) * Count, Patience, $"{fraction:P0} claimed");

    public static Task WaitExitAsync(WorkerProcess worker) =>
        Eventually.WaitAsync(() => Task.FromResult(worker.HasExited), exited => exited, Patience, "worker exit");

    /// <summary>
    /// Runs a command on the broker's machine (rabbitmqctl, kill, service) and fails on a non-zero exit: on
    /// this machine, or inside the broker's container when the tests started one. Returns its standard output.
    /// </summary>
    public static async Task<string> ShellAsync(string command)
    {
        if (TestServices.BrokerContainer is { } container)
        {
            return await container.RunAsync(command);
        }

        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add(command);
        using var process = Process.Start(info)!;
        // A fault command that never returns would hold the whole run: give up on it after a few minutes.
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        try
        {
            var stdout = process.StandardOutput.ReadToEndAsync(timeout.Token);
            var stderr = process.StandardError.ReadToEndAsync(timeout.Token);
            await process.WaitForExitAsync(timeout.Token);
            string output = await stdout + await stderr;
            if (process.ExitCode != 0)
            {
                throw new InvalidOperationException($"`{command}` exited {process.ExitCode}: {output}");
            }

            return await stdout;
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"`{command}` did not return within 3 minutes");
        }
    }

    /// <summary>
    /// Lets the pipeline finish: until every committed notification is received or dead-lettered with the
    /// outbox empty and the work queues holding nothing, ready or unacked (<see cref="HeldAsync"/>), or — where losses are
    /// allowed, or a consumer sits on messages it never settles — nothing has moved for 10 s.
    /// </summary>
    public async Task DrainAsync()
    {
        var deadline = DateTime.UtcNow + Patience;
        (int, uint, long, uint, long) last = default;
        (int, uint, long, uint) lastSeen = default;
        var stableSince = DateTime.UtcNow;
        long held = -1;
        var heldAt = DateTime.MinValue;
        while (DateTime.UtcNow < deadline)
        {
            await Task.Delay(500);
            int received = Receiver.CountByNotificationId().Count;
            uint dead = await Broker.CountAsync(Broker.Options.DeadLetterQueue);
            long outbox = await Db.CountAsync("outbox");
            uint queued = await QueuedAsync();
            bool idle = outbox == 0 && queued == 0;
            bool moving = (received, dead, outbox, queued) != lastSeen;
            lastSeen = (received, dead, outbox, queued);
            // Nothing ready is not yet nothing held: right after a reconnect the broker redelivers the whole unacked window,
            // every notification in it already received, and stopping the consumer before it has settled those copies hands
            // them back to the queue (scenario 8's short variant: 10-30 messages left in 4 of 10 runs). HeldAsync starts an
            // Erlang VM (rabbitmqctl, about 1.3 CPU-s): asked when everything is accounted for, else while the other figures
            // stand still at most every 2 s — not every half second while a consumer works through its prefetch, as it was
            // (the outage phase's two test processes and the swarm smoke kept both cores busy, 2026-11-29).
            if (!idle)
            {
                held = -1;
            }
            else if (received + dead >= Count || (!moving && DateTime.UtcNow - heldAt >= TimeSpan.FromSeconds(2)))
            {
                held = await HeldAsync();
                heldAt = DateTime.UtcNow;
            }

            var now = (received, dead, outbox, queued, held);
            stableSince = now == last ? stableSince : DateTime.UtcNow;
            last = now;
            if (idle && ((held == 0 && received + dead >= Count) || DateTime.UtcNow - stableSince > TimeSpan.FromSeconds(10)))
            {
                break;
            }
        }

        await Task.WhenAll(_workers.Where(w => !w.HasExited).Select(StopAsync));
    }

    /// <summary>
    /// Messages in the work and retry queues, ready or delivered and not yet acked, as <c>rabbitmqctl list_queues</c> reads
    /// them from the queues themselves: a passive declare (<see cref="QueuedAsync"/>) counts ready ones only, and the management
    /// API's figures are statistics emitted every few seconds. On the cluster (another node set), ready ones only.
    /// </summary>
    public async Task<long> HeldAsync()
    {
        if (!string.IsNullOrEmpty(Broker.Options.Endpoints))
        {
            return await QueuedAsync();
        }

        string vhost = BrokerManagement.VhostOf(Broker.Options.Uri);
        var ours = Enumerable.Range(1, Broker.Options.RetryDelays.Length).Select(Broker.Options.RetryQueue).Prepend(Broker.Options.Queue)
            .Append(Broker.Options.DeadLetterInbox).ToHashSet();
        string table = await ShellAsync($"rabbitmqctl -q list_queues -p '{vhost}' --no-table-headers name messages");
        return table.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split('\t'))
            .Where(fields => fields.Length == 2 && ours.Contains(fields[0]))
            .Sum(fields => long.Parse(fields[1], CultureInfo.InvariantCulture));
    }

    public async Task<uint> QueuedAsync()
    {
        // The dead-letter inbox too: what the broker dead-lettered is not settled until a consumer recorded and moved it.
        uint total = await Broker.CountAsync(Broker.Options.Queue) + await Broker.CountAsync(Broker.Options.DeadLetterInbox);
        for (int attempt = 1; attempt <= Broker.Options.RetryDelays.Length; attempt++)
        {
            total += await Broker.CountAsync(Broker.Options.RetryQueue(attempt));
        }

        return total;
    }

    /// <summary>
    /// The oracle's verdict on this run. <paramref name="causes"/>: what the fault may rightly end a notification as besides
    /// delivered, when the run is not a matrix scenario (default: <see cref="ChaosScenarios.CausesOf"/> of <paramref name="scenario"/>).
    /// </summary>
    public async Task<ChaosVerdict> JudgeAsync(int scenario, string name, ChaosCauses? causes = null)
    {
        var received = Receiver.CountByNotificationId();
        Violations.AddRange(Receiver.Violations());
        var deadLetters = await Broker.DrainDeadLetterBytesAsync();
        var deadIds = deadLetters
            .Select(d => (Notifications.Shared.Contract.MessageSerializer.TryDeserialize(d.Body, out var m, out _) ? m.Id : 0, d.Reason))
            .ToList();
        await using var connection = await TestDatabase.OpenAsync();
        var deadLetterRows = (await connection.QueryAsync<(Guid, long?)>(
            "SELECT letter_key, notification_id FROM notifications.dead_letter")).ToList();
        var rejected = (await connection.QueryAsync<long>("SELECT id FROM notifications.rejected")).ToHashSet();
        // At most once, the trace of a loss: a 'sending' mark, or a 'handing_back' one whose copy a crash or a refusal cut off.
        var marked = (await connection.QueryAsync<long>(
            "SELECT notification_id FROM notifications.delivery_log WHERE status IN ('sending', 'handing_back')")).ToHashSet();
        var suppressed = (await connection.QueryAsync<long>("SELECT notification_id FROM notifications.delivery_log WHERE status = 'suppressed'")).ToHashSet();
        if (suppressed.Count > 0)
        {
            Notes.Add($"{suppressed.Count} recorded suppressed");
        }

        var (budget, killedWindow) = await BudgetAsync(connection);
        return ChaosVerdict.Judge(scenario, name, Mode, Committed, RolledBack, received, deadIds, rejected, marked,
            await Db.CountAsync("outbox"), await QueuedAsync(), Elapsed, string.Join("; ", Notes.Concat(Violations)), ChaosScenarios.NoDeadLetters.Contains(scenario),
            Violations.Count, suppressed, causes ?? ChaosScenarios.CausesOf(scenario))
        with
        {
            DeadLetterTable = DeadLetterTableCheck.Compare(deadLetters, deadLetterRows),
            Budget = budget,
            KilledWindow = killedWindow,
        };
    }

    /// <summary>
    /// The budget of the run's cuts (<see cref="ChaosBudget"/>), each bounded by the notifications in flight when it came:
    /// committed and not yet settled then. A send under way has no <c>sent</c> row yet (the log is written after the send, by
    /// a statement that starts later), nor a dead letter, nor a suppression: what the log and the dead_letter table held
    /// before the cut's instant was out of reach of it. And what killed consumers held unacked, bounded the same way.
    /// </summary>
    private async Task<(ChaosBudget Budget, int KilledWindow)> BudgetAsync(Npgsql.NpgsqlConnection connection)
    {
        var budget = ChaosBudget.None;
        int killedWindow = 0;
        foreach (var cut in _cuts)
        {
            long settled = await connection.ExecuteScalarAsync<long>($"""
                SELECT (SELECT count(*) FROM {TestDatabase.Schema}.delivery_log WHERE status IN ('sent', 'suppressed') AND updated_at < @At)
                     + (SELECT count(DISTINCT notification_id) FROM {TestDatabase.Schema}.dead_letter WHERE dead_lettered_at < @At)
                """, new { cut.At });
            int inFlight = (int)Math.Max(0, Count - settled);
            budget = budget.Plus(cut.Sends, inFlight, cut.Why);
            killedWindow += Math.Min(cut.Held, inFlight);
        }

        return (budget, killedWindow);
    }

    /// <summary>Keeps <paramref name="resource"/> (e.g. a proxy the workers connect through) until the run ends.</summary>
    public T Own<T>(T resource)
        where T : IAsyncDisposable
    {
        _owned.Add(resource);
        return resource;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var worker in _workers)
        {
            await worker.DisposeAsync();
        }

        await KeepLogsAsync();

        foreach (var resource in _owned)
        {
            await resource.DisposeAsync();
        }

        await Sink.DisposeAsync();
        if (Webhooks is not null)
        {
            await Webhooks.DisposeAsync();
        }

        if (Push is not null)
        {
            await Push.DisposeAsync();
        }

        await Broker.DisposeAsync();
    }

    // Each worker's output goes to .run/chaos/logs/<start>-<mode>-<n>.log: a failed verdict is read from them.
    private async Task KeepLogsAsync()
    {
        string folder = RepositoryLayout.File(".run", "chaos", "logs");
        Directory.CreateDirectory(folder);
        string run = $"{DateTime.UtcNow - Elapsed:yyyyMMdd-HHmmss}-{Mode}";
        for (int i = 0; i < _workers.Count; i++)
        {
            string role = _consumerSettings.ContainsKey(_workers[i]) ? "consumer" : "worker";
            await File.WriteAllTextAsync(Path.Combine(folder, $"{run}-{i}-{role}.log"), _workers[i].Output);
        }
    }

    private static async Task StopAsync(WorkerProcess worker)
    {
        await worker.TerminateAsync();
        await worker.WaitForExitAsync(TimeSpan.FromSeconds(45));
    }

    private static int Setting((string Key, string Value)[] settings, string key, int fallback) =>
        settings.LastOrDefault(s => s.Key == key) is { Value: { } value } ? int.Parse(value, CultureInfo.InvariantCulture) : fallback;

    // One SMTP send at a time per handler, bulk and urgent lane alike.
    private int Window(WorkerProcess consumer)
    {
        var settings = _consumerSettings[consumer];
        var defaults = new Notifications.Consumer.ConsumerOptions();
        return Setting(settings, "Consumer:Channels", defaults.Channels) * Setting(settings, "Consumer:Prefetch", defaults.Prefetch) * _envelopeSize;
    }

    // One send at a time per handler. The run's rows are all of normal priority (its inserts set none): the urgent lane's
    // handlers take only from the urgent queue, hold nothing, and cut nothing.
    private int SendsUnderWay(WorkerProcess consumer) =>
        Setting(_consumerSettings[consumer], "Consumer:Handlers", new Notifications.Consumer.ConsumerOptions().Handlers);

    private IEnumerable<WorkerProcess> RunningConsumers() => _consumerSettings.Keys.Where(c => !c.HasExited);

    /// <summary>One cut of the fault: when, the sends it may have cut, what a killed process held unacked, and why.</summary>
    private sealed record Cut(DateTime At, int Sends, int Held, string Why);

    private WorkerProcess Track(WorkerProcess worker)
    {
        _workers.Add(worker);
        return worker;
    }
}
