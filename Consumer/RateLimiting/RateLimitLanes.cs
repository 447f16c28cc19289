using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Settling;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// One lane per rate-limited recipient domain: a durable queue <c>{Queue}.limit.{domain}</c>. A handler that takes a
/// message for a limited domain from the work queue moves it there (same headers, same attempt) and is free again at
/// once. Each process consumes each lane with a small prefetch and lets one message at a time into the handlers when
/// the domain's fleet-wide slot comes (<see cref="FleetRateLimiter"/>). So a throttled domain's backlog waits in its
/// own queue on the broker — it holds no handler, no prefetch slot of the work queue, spends no attempt — and every
/// other domain flows past it. A message that finds a slot this process holds already due (the domain is below its
/// rate) is sent at once, without the detour.
/// A message let in goes to <see cref="Admitted"/>, which the handlers read before the work queue's prefetched backlog,
/// and a lane takes its next slot only when there is room there. The slot is held for the message and spent right
/// before its SMTP transaction (<see cref="RateLimitedEmailSender"/>), or a new one taken if it went stale on the way
/// (<see cref="SlotSchedule"/>): the pace at the relay neither lags behind the other traffic nor catches up in a burst.
/// </summary>
internal sealed partial class RateLimitLanes(
    RateLimitSettings settings, FleetRateLimiter limiter, RelayBreaker relay, InfrastructureBreaker infrastructure, RabbitMqOptions rabbit,
    ILogger<RateLimitLanes> logger) : IAsyncDisposable
{
    private static readonly TimeSpan Tick = TimeSpan.FromSeconds(1);
    private readonly List<Lane> _lanes = [];
    // Room for one message a lane: what is let in and not yet taken by a handler stays that small.
    private readonly Channel<Delivery> _admitted = Channel.CreateBounded<Delivery>(
        new BoundedChannelOptions(Math.Max(1, settings.Domains.Count)) { FullMode = BoundedChannelFullMode.Wait });
    private readonly CancellationTokenSource _stop = new();
    private Task _running = Task.CompletedTask;
    private OutboundPublisher? _outbound;

    /// <summary>The lane queue of a domain.</summary>
    public static string QueueName(RabbitMqOptions rabbit, string domain) => $"{rabbit.Queue}.limit.{domain}";

    /// <summary>
    /// The lane queue a message must wait in; null when it may be sent now — its domain has no limit, or a slot of the
    /// domain this process holds is due (then that slot is taken and held for its send).
    /// </summary>
    public string? LaneFor(string? domain) =>
        settings.Domains.Count > 0 && domain is not null
            && settings.Domains.ContainsKey(domain) && !limiter.TryHoldDue(RateLimitSettings.DomainKey(domain))
            ? QueueName(rabbit, domain)
            : null;

    /// <summary>Messages let in, each with its domain's slot due now: the handlers take them before any other of the work queue's.</summary>
    public ChannelReader<Delivery> Admitted => _admitted.Reader;

    /// <summary>
    /// Declares the lanes, starts consuming them and letting their messages into <see cref="Admitted"/> at their rate. An
    /// envelope a lane receives goes back through <paramref name="outbound"/> as the work queue's do (see <see cref="EnvelopeSettlement"/>).
    /// A lane channel is replaced only while the client is not recovering the connection (<paramref name="recovery"/>). Without
    /// <paramref name="consume"/> (a process that consumes only the urgent lane, whose handlers read nothing let in) the lanes are
    /// declared, so its handlers may move messages there, and left to the processes that consume the standard lane.
    /// </summary>
    public async Task StartAsync(IConnection connection, ConnectionRecoveryWatch recovery, OutboundPublisher outbound, bool consume, CancellationToken cancellationToken)
    {
        if (settings.Domains.Count == 0)
        {
            return;
        }

        await using (var setup = await connection.CreateChannelAsync(cancellationToken: cancellationToken))
        {
            foreach (string domain in settings.Domains.Keys)
            {
                string queue = QueueName(rabbit, domain);
                await setup.QueueDeclareAsync(queue, durable: true, exclusive: false, autoDelete: false, cancellationToken: cancellationToken);
                await setup.QueueBindAsync(queue, rabbit.Exchange, queue, cancellationToken: cancellationToken);
            }
        }

        if (!consume)
        {
            return;
        }

        _outbound = outbound;
        try
        {
            foreach (var (domain, rate) in settings.Domains)
            {
                var lane = new Lane(domain, rate, QueueName(rabbit, domain), Prefetch(rate));
                _lanes.Add(lane);
                await lane.OpenAsync(connection, rabbit, outbound, infrastructure, _stop.Token, logger, cancellationToken);
            }
        }
        catch
        {
            // A start cut half-way (the connection lost during the consumer's set-up) leaves nothing open: it is run again whole.
            await DisposeLaneChannelsAsync();
            _lanes.Clear();
            throw;
        }

        connection.ConnectionShutdownAsync += (_, _) =>
        {
            _lanes.ForEach(l => l.Channel?.Acks.Reset());
            return Task.CompletedTask;
        };
        var stop = _stop.Token;
        _running = Task.WhenAll(_lanes.Select(l => PumpAsync(l, stop)).Append(SuperviseAsync(connection, recovery, stop)));
    }

    /// <summary>Stops taking from the lanes (shutdown); what they hold unacked goes back to the broker with their channels.</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        await _running;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        foreach (var lane in _lanes)
        {
            try
            {
                await (lane.Channel?.CancelAsync(timeout.Token) ?? Task.CompletedTask);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                LogLaneFailed(logger, lane.Domain, ex);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await DisposeLaneChannelsAsync();
        _stop.Dispose();
    }

    private async Task DisposeLaneChannelsAsync()
    {
        foreach (var lane in _lanes)
        {
            await (lane.Channel?.DisposeAsync() ?? ValueTask.CompletedTask);
        }
    }

    private int Prefetch(Rate rate) => settings.Options.LanePrefetch > 0
        ? settings.Options.LanePrefetch
        : (int)Math.Clamp(Math.Ceiling(rate.PerSecond), 10, 2_000);

    // One message at a time: an email waits while the relay breaker turns sends away (its handler could only hand it back);
    // then each waits for room to hand it over, then for the domain's slot, and is handed over at once. A webhook or a push
    // goes on whatever the relay's breaker does: its own destination's breaker or pause, if any, parks it in the handler.
    private async Task PumpAsync(Lane lane, CancellationToken stop)
    {
        try
        {
            await foreach (var delivery in lane.Waiting.Reader.ReadAllAsync(stop))
            {
                while (relay.IsRejecting && IsEmail(delivery))
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(250), stop);
                }

                await _admitted.Writer.WaitToWriteAsync(stop);
                await limiter.HoldAsync(RateLimitSettings.DomainKey(lane.Domain), lane.Rate, stop);
                await _admitted.Writer.WriteAsync(delivery with { Admitted = true }, stop);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }
    }

    // A message that cannot be read is the handler's to dead-letter: nothing to wait for.
    private static bool IsEmail(Delivery delivery) =>
        (delivery.Message ?? (MessageSerializer.TryDeserialize(delivery.Body, out var message, out _) ? message : null))?.ChannelName
        == NotificationChannels.Email;

    // A lane channel closed by a channel error is not recovered by the client: open it again. One closed with its connection is
    // the client's to recover, after the connection and the topology: not while that recovery is under way.
    private async Task SuperviseAsync(IConnection connection, ConnectionRecoveryWatch recovery, CancellationToken stop)
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                await Task.Delay(Tick, stop);
                foreach (var lane in _lanes.Where(l => connection.IsOpen && !recovery.InProgress && l.Channel is not { IsOpen: true }))
                {
                    try
                    {
                        await lane.OpenAsync(connection, rabbit, _outbound!, infrastructure, stop, logger, stop);
                    }
                    catch (Exception ex) when (ex is not OperationCanceledException || !stop.IsCancellationRequested)
                    {
                        LogLaneFailed(logger, lane.Domain, ex);
                    }
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }
    }

    [LoggerMessage(EventId = 4114, Level = LogLevel.Warning, Message = "Rate-limit lane of {Domain} failed; trying again")]
    private static partial void LogLaneFailed(ILogger logger, string domain, Exception exception);

    private sealed class Lane(string domain, Rate rate, string queue, int prefetch)
    {
        public string Domain => domain;

        public Rate Rate => rate;

        public ConsumerChannel? Channel { get; private set; }

        /// <summary>Received from the lane queue, not yet let in.</summary>
        public Channel<Delivery> Waiting { get; } = System.Threading.Channels.Channel.CreateUnbounded<Delivery>(
            new UnboundedChannelOptions { SingleReader = true });

        // An envelope's return (EnvelopeReturn) is tried until the lanes stop (shutdown): then it goes back whole.
        public async Task OpenAsync(
            IConnection connection, RabbitMqOptions rabbit, OutboundPublisher outbound, InfrastructureBreaker infrastructure, CancellationToken stopping,
            ILogger logger, CancellationToken cancellationToken)
        {
            if (Channel is { } old)
            {
                await old.DisposeAsync();
            }

            // Its deliveries retry through the standard work queue's delay queues (the lane queue has none);
            // back in the work queue, a retried message is moved here again until it finds its slot.
            var lane = new ConsumerLane(queue, prefetch, Waiting, RetryQueueOf: rabbit.Queue);
            Channel = await ConsumerChannel.OpenAsync(connection, lane, outbound, infrastructure, stopping, logger, metrics: null, cancellationToken);
            await Channel.ConsumeAsync(cancellationToken);
        }
    }
}
