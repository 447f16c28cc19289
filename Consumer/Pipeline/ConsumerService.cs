using System.Threading.Channels;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Benchmarking;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using Notifications.Shared.Observability.Hops;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// The consumer process: one broker connection, <see cref="ConsumerOptions.Channels"/> consuming
/// channels with a prefetch window each, and <see cref="ConsumerOptions.Handlers"/> competing handlers,
/// each with its own sender per channel (an SMTP connection for email). On shutdown it stops consuming, lets in-flight handlers finish
/// and ack, requeues what they did not start — of an envelope, its unsettled items only, never its settled ones — and closes.
/// </summary>
internal sealed class ConsumerService(
    IOptions<ConsumerOptions> options,
    IOptions<RabbitMqOptions> rabbitOptions,
    IDeliveryLogStore logStore,
    IDeadLetterStore deadLetterStore,
    ChannelRegistry outlets,
    RelayBreaker relay,
    InfrastructureBreaker infrastructure,
    RateLimitLanes lanes,
    ConsumerStats stats,
    ConsumerMetrics metrics,
    WorkerHealth health,
    TimeProvider time,
    FaultInjector faults,
    ILoggerFactory loggers,
    Suppression.SuppressionList suppression,
    Preferences.PreferenceCheck preferences,
    DeadLetterInbox.InboxRecorder inbox,
    Channels.Live.LiveRoute live,
    Channels.Live.LiveFallback liveFallback,
    IHostApplicationLifetime lifetime,
    Outcomes.OutcomeEventWriter outcomes) : BackgroundService
{
    private readonly ConsumerOptions _options = options.Value;
    private readonly RabbitMqOptions _rabbit = rabbitOptions.Value;
    // Looks (about a second apart) that a channel must be seen closed, its connection open, before it is replaced.
    private const int ClosedTicksBeforeReopen = 3;
    // At shutdown, how long envelopes' unsettled items may take to go back (EnvelopeReturn) once the handlers are done.
    private static readonly TimeSpan ReturnTimeout = TimeSpan.FromSeconds(5);
    private readonly ILogger _logger = loggers.CreateLogger<ConsumerService>();

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        await using var connection = await RabbitConnector.ConnectAsync(_rabbit, "notifications-consumer", _logger, stoppingToken);
        using var stall = RecoveryStallGuard.Attach(connection, _logger, time, _rabbit.RecoveryStallAfter, RecoveryStallGuard.StopWorker(lifetime));
        var recovery = ConnectionRecoveryWatch.Attach(connection);
        health.BrokerConnected(connection);
        await using var deadLetters = new DeadLetterRecorder(deadLetterStore, _options.LogBatchSize, outcomes);
        await using var outbound = new OutboundPublisher(connection, _rabbit, time, deadLetters, faults);
        using var liveRoute = live.Attach(outbound);
        await using var log = new DeliveryLog(logStore, _options.LogBatchSize, infrastructure);
        // The urgent lane's delivery-log statements are coalesced apart from the standard lane's, so an urgent
        // check or record never waits for (or rides in) a statement of hundreds of bulk ids.
        await using var urgentLog = new DeliveryLog(logStore, _options.LogBatchSize, infrastructure);
        // Likewise a message a rate-limit lane let in: its slot is held for it only briefly, so its check must not wait
        // behind the backlog's statements (FleetRateLimiter.SpendAsync).
        await using var admittedLog = new DeliveryLog(logStore, _options.LogBatchSize, infrastructure);
        var inFlight = new InFlightNotifications();
        var handler = new DeliveryHandler(log, inFlight, outbound, outlets, lanes, _options, _rabbit, stats, time, faults, loggers.CreateLogger<DeliveryHandler>(), suppression, preferences, infrastructure, liveFallback, outcomes);
        var admittedHandler = new DeliveryHandler(admittedLog, inFlight, outbound, outlets, lanes, _options, _rabbit, stats, time, faults, loggers.CreateLogger<DeliveryHandler>(), suppression, preferences, infrastructure, liveFallback, outcomes);
        var urgentHandler = new DeliveryHandler(urgentLog, inFlight, outbound, outlets, lanes, _options, _rabbit, stats, time, faults, loggers.CreateLogger<DeliveryHandler>(), suppression, preferences, infrastructure, liveFallback, outcomes);
        // One lane each: the standard lane (normal and bulk, Channels x Prefetch, Handlers) and the urgent lane
        // (one channel, UrgentPrefetch, UrgentHandlers), with separate in-process work queues, so urgent
        // deliveries never wait behind the standard lane's prefetched backlog nor for its handlers.
        var standard = new ConsumerLane(_rabbit.Queue, _options.Prefetch);
        var urgent = new ConsumerLane(_rabbit.UrgentQueue, _options.UrgentPrefetch) { Tag = HopTags.Urgent };
        // Consumer:Lanes may leave one of them to other processes (urgent deliveries in processes of their own).
        bool consumesStandard = _options.Lanes.HasFlag(ConsumerLanes.Standard);
        bool consumesUrgent = _options.Lanes.HasFlag(ConsumerLanes.Urgent);
        var consumerLanes = Enumerable.Repeat(standard, consumesStandard ? _options.Channels : 0).Concat(consumesUrgent ? [urgent] : []).ToArray();
        // Cancelled when the handlers run out of time at shutdown (abort), and when the envelopes' returns do (returning).
        using var abort = new CancellationTokenSource();
        using var returning = new CancellationTokenSource();
        var channels = await SetUpAsync(connection, recovery, consumerLanes, consumesStandard, outbound, returning.Token, stoppingToken);
        connection.ConnectionShutdownAsync += (_, _) =>
        {
            Array.ForEach(channels, c => c.Acks.Reset());
            return Task.CompletedTask;
        };
        // What the broker dead-letters on its own (delivery limit, expiry) is recorded and moved by every consumer.
        var inboxRun = inbox.RunAsync(connection, recovery, outbound, stoppingToken);
        int standardHandlers = consumesStandard ? _options.Handlers : 0;
        int urgentHandlers = consumesUrgent ? _options.UrgentHandlers : 0;
        ConsumerLog.Started(_logger, standardHandlers, consumesStandard ? _options.Channels : 0, _options.Prefetch, _options.DeliveryMode, _options.Sender);
        if (consumesUrgent)
        {
            ConsumerLog.UrgentLane(_logger, _rabbit.UrgentQueue, urgentHandlers, _options.UrgentPrefetch);
        }

        if (!consumesStandard || !consumesUrgent)
        {
            ConsumerLog.OneLane(_logger, _options.Lanes);
        }

        // The standard lane's handlers take a message a rate-limit lane let in (its slot is due) before the prefetched backlog.
        var standardWork = new PriorityReader<Delivery>(lanes.Admitted, standard.Work.Reader);
        var handlers = Enumerable.Range(0, standardHandlers).Select(_ => RunHandlerAsync(standardWork, handler, admittedHandler, stoppingToken, abort.Token))
            .Concat(Enumerable.Range(0, urgentHandlers).Select(_ => RunHandlerAsync(urgent.Work.Reader, urgentHandler, urgentHandler, stoppingToken, abort.Token)))
            .ToArray();
        await SuperviseAsync(connection, recovery, channels, outbound, returning.Token, stoppingToken);
        await ShutdownAsync(channels, handlers, [lanes.Admitted, standard.Work.Reader, urgent.Work.Reader], abort, returning);
        await inboxRun;
    }

    // The topology declared, a channel per lane opened (with its prefetch; consuming starts under SuperviseAsync) and the rate-limit
    // lanes started. The broker may close the connection, or the network cut it, after the connect and before this is done:
    // the client recovers the connection, not a set-up cut half-way, which would fault the service and stop the host (issue 27).
    // So the channels opened so far are closed and, once the client reports the connection back, it all runs again (the
    // declares are idempotent, the channels new). Its wait is for the connection's events: an outage that lasts does not spin.
    // An error on an open connection (a queue declared with other arguments, a refused permission) still stops the worker.
    private async Task<ConsumerChannel[]> SetUpAsync(
        IConnection connection, ConnectionRecoveryWatch recovery, ConsumerLane[] consumerLanes, bool consumesRateLimitLanes, OutboundPublisher outbound,
        CancellationToken returning, CancellationToken stoppingToken)
    {
        while (true)
        {
            var channels = new List<ConsumerChannel>(consumerLanes.Length);
            try
            {
                await using (var setup = await connection.CreateChannelAsync(cancellationToken: stoppingToken))
                {
                    await RabbitTopology.DeclareAsync(setup, _rabbit, stoppingToken);
                }

                foreach (var lane in consumerLanes)
                {
                    channels.Add(await ConsumerChannel.OpenAsync(connection, lane, outbound, infrastructure, returning, _logger, metrics, stoppingToken));
                }

                await lanes.StartAsync(connection, recovery, outbound, consumesRateLimitLanes, stoppingToken);
                return [.. channels];
            }
            catch (OperationInterruptedException ex) when (!stoppingToken.IsCancellationRequested && (!connection.IsOpen || recovery.InProgress))
            {
                foreach (var channel in channels)
                {
                    await channel.DisposeAsync();
                }

                ConsumerLog.SetUpCut(_logger, ex.ShutdownReason?.ReplyText ?? ex.Message);
                await recovery.WaitUntilRecoveredAsync(stoppingToken);
            }
        }
    }

    // Until shutdown: a consumer channel closed by a channel error is not recovered by the client; reopen it.
    // Consume while the relay breaker is closed, not while it is open (RelayGate).
    private async Task SuperviseAsync(
        IConnection connection, ConnectionRecoveryWatch recovery, ConsumerChannel[] channels, OutboundPublisher outbound, CancellationToken returning,
        CancellationToken stoppingToken)
    {
        var gate = new RelayGate(relay, infrastructure, time, _logger);
        var closedTicks = new int[channels.Length];
        try
        {
            while (true)
            {
                await gate.ApplyAsync(channels, stoppingToken);
                await gate.WaitAsync(stoppingToken);
                health.Beat();
                for (int i = 0; i < channels.Length; i++)
                {
                    // A channel closed with its connection is brought back by the client's recovery, after the
                    // connection and the topology: replacing it meanwhile would race that recovery (deliveries still
                    // arriving on the old one, never acked). Only one still closed after several looks, with the
                    // connection open and its recovery over, was closed on its own (a channel error) and is replaced.
                    // The looks alone were not enough: on a loaded machine the topology took longer than three of them.
                    closedTicks[i] = channels[i].IsOpen || !connection.IsOpen || recovery.InProgress ? 0 : closedTicks[i] + 1;
                    if (closedTicks[i] < ClosedTicksBeforeReopen)
                    {
                        continue;
                    }

                    closedTicks[i] = 0;

                    ConsumerLog.ChannelReopened(_logger);
                    var lane = channels[i].Lane;
                    await channels[i].DisposeAsync();
                    channels[i] = await ConsumerChannel.OpenAsync(connection, lane, outbound, infrastructure, returning, _logger, metrics, stoppingToken);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    private async Task ShutdownAsync(
        ConsumerChannel[] channels, Task[] handlers, ChannelReader<Delivery>[] unstarted, CancellationTokenSource abort, CancellationTokenSource returning)
    {
        await lanes.StopAsync();
        using var cancelTimeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        foreach (var channel in channels)
        {
            try
            {
                await channel.CancelAsync(cancelTimeout.Token);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                ConsumerLog.HandlerFailed(_logger, 0, ex);
            }
        }

        var all = Task.WhenAll(handlers);
        if (await Task.WhenAny(all, Task.Delay(_options.ShutdownTimeout, CancellationToken.None)) != all)
        {
            ConsumerLog.ShutdownTimedOut(_logger, handlers.Count(h => !h.IsCompleted));
            await abort.CancelAsync();
        }

        // From here the envelopes' returns (the aborted handlers' and the unstarted items') have a few seconds; a broker that
        // takes none in that time gets them back whole, as after a crash.
        returning.CancelAfter(ReturnTimeout);
        await all;
        await RequeueUnstartedAsync(unstarted);
        foreach (var channel in channels)
        {
            await channel.DisposeAsync();
        }

        await lanes.DisposeAsync();

        ConsumerLog.Stopped(_logger, stats.Delivered, stats.Duplicates, stats.Retried, stats.DeadLettered, stats.Unknown);
        if (_options.StatsFile is { } path)
        {
            await ConsumerReport.From(stats, metrics.Hops).WriteAsync(path, CancellationToken.None);
        }
    }

    // What the handlers did not start is requeued while the channels are still open: a single message in its place, an envelope's
    // item with the envelope's other unsettled items once the last is given back (in its place only if none is settled; else
    // as one new message at the tail, and the envelope acked), so a settled item never comes back.
    private static async Task RequeueUnstartedAsync(ChannelReader<Delivery>[] unstarted)
    {
        foreach (var work in unstarted)
        {
            while (work.TryRead(out var delivery))
            {
                await delivery.RequeueAsync();
            }
        }
    }

    // A handler takes deliveries until shutdown begins; the one in hand is finished (and acked) first. A sent delivery's log
    // write and ack wait for the delivery log's next batch: the handler takes its next delivery meanwhile, with at most
    // Consumer:SettlingPerHandler of its deliveries settling at once, and ends only when all of them are settled.
    private async Task RunHandlerAsync(
        ChannelReader<Delivery> work, DeliveryHandler handler, DeliveryHandler admittedHandler, CancellationToken stopTaking, CancellationToken abort)
    {
        await Task.Yield();
        await using var senders = new HandlerSenders(outlets);
        var settling = new Queue<Task>();
        try
        {
            while (await work.WaitToReadAsync(stopTaking))
            {
                while (!stopTaking.IsCancellationRequested && work.TryRead(out var delivery))
                {
                    metrics.HandlingStarted();
                    using var activity = ConsumerTracing.StartProcessing(delivery);
                    try
                    {
                        var left = await (delivery.Admitted ? admittedHandler : handler).HandleAsync(delivery, senders, abort);
                        if (!left.IsCompleted)
                        {
                            settling.Enqueue(left);
                        }
                    }
                    finally
                    {
                        metrics.HandlingEnded();
                    }

                    while (settling.Count > 0 && (settling.Peek().IsCompleted || settling.Count >= _options.SettlingPerHandler))
                    {
                        await settling.Dequeue();
                    }
                }
            }
        }
        catch (OperationCanceledException) when (stopTaking.IsCancellationRequested || abort.IsCancellationRequested)
        {
        }
        finally
        {
            while (settling.Count > 0)
            {
                await settling.Dequeue();
            }
        }
    }
}
