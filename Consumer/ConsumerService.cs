using System.Threading.Channels;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.RateLimiting;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using RabbitMQ.Client;

namespace Notifications.Consumer;

/// <summary>
/// The consumer process: one broker connection, <see cref="ConsumerOptions.Channels"/> consuming
/// channels with a prefetch window each, and <see cref="ConsumerOptions.Handlers"/> competing handlers,
/// each with its own SMTP connection. On shutdown it stops consuming, lets in-flight handlers finish
/// and ack, and closes; deliveries received but not started return to the queue with their channel.
/// </summary>
internal sealed class ConsumerService(
    IOptions<ConsumerOptions> options,
    IOptions<RabbitMqOptions> rabbitOptions,
    IDeliveryLogStore logStore,
    EmailSenderFactory senders,
    RelayBreaker relay,
    RateLimitLanes lanes,
    ConsumerStats stats,
    ConsumerMetrics metrics,
    WorkerHealth health,
    TimeProvider time,
    FaultInjector faults,
    ILoggerFactory loggers) : BackgroundService
{
    private readonly ConsumerOptions _options = options.Value;
    private readonly RabbitMqOptions _rabbit = rabbitOptions.Value;
    private readonly ILogger _logger = loggers.CreateLogger<ConsumerService>();

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        await using var connection = await RabbitConnector.ConnectAsync(_rabbit, "notifications-consumer", _logger, stoppingToken);
        health.BrokerConnected(connection);
        await using var outbound = new OutboundPublisher(connection, _rabbit, time);
        await using var log = new DeliveryLog(logStore, _options.LogBatchSize);
        var handler = new DeliveryHandler(log, outbound, relay, lanes, _options, _rabbit, stats, time, faults, loggers.CreateLogger<DeliveryHandler>());
        await using (var setup = await connection.CreateChannelAsync(cancellationToken: stoppingToken))
        {
            await RabbitTopology.DeclareAsync(setup, _rabbit, stoppingToken);
        }

        var work = Channel.CreateUnbounded<Delivery>(new UnboundedChannelOptions { SingleWriter = false, SingleReader = false });
        var channels = new ConsumerChannel[_options.Channels];
        for (int i = 0; i < channels.Length; i++)
        {
            channels[i] = await ConsumerChannel.OpenAsync(connection, _rabbit, _options, work.Writer, _logger, stoppingToken);
        }

        connection.ConnectionShutdownAsync += (_, _) =>
        {
            Array.ForEach(channels, c => c.Acks.Reset());
            return Task.CompletedTask;
        };
        await lanes.StartAsync(connection, work.Writer, stoppingToken);
        ConsumerLog.Started(_logger, _options.Handlers, _options.Channels, _options.Prefetch, _options.DeliveryMode, _options.Sender);

        using var abort = new CancellationTokenSource();
        var handlers = Enumerable.Range(0, _options.Handlers)
            .Select(_ => RunHandlerAsync(work.Reader, handler, stoppingToken, abort.Token))
            .ToArray();
        await SuperviseAsync(connection, channels, work.Writer, stoppingToken);
        await ShutdownAsync(channels, handlers, abort);
    }

    // Until shutdown: a consumer channel closed by a channel error is not recovered by the client; reopen it.
    // Consume while the relay breaker is closed, not while it is open (RelayGate).
    private async Task SuperviseAsync(IConnection connection, ConsumerChannel[] channels, ChannelWriter<Delivery> work, CancellationToken stoppingToken)
    {
        var gate = new RelayGate(relay, time, _logger);
        try
        {
            while (true)
            {
                await gate.ApplyAsync(channels, stoppingToken);
                await gate.WaitAsync(stoppingToken);
                health.Beat();
                for (int i = 0; i < channels.Length; i++)
                {
                    if (channels[i].IsOpen || !connection.IsOpen)
                    {
                        continue;
                    }

                    ConsumerLog.ChannelReopened(_logger);
                    await channels[i].DisposeAsync();
                    channels[i] = await ConsumerChannel.OpenAsync(connection, _rabbit, _options, work, _logger, stoppingToken);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    private async Task ShutdownAsync(ConsumerChannel[] channels, Task[] handlers, CancellationTokenSource abort)
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

        await all;
        foreach (var channel in channels)
        {
            await channel.DisposeAsync();
        }

        await lanes.DisposeAsync();

        ConsumerLog.Stopped(_logger, stats.Delivered, stats.Duplicates, stats.Retried, stats.DeadLettered, stats.Unknown);
        if (_options.StatsFile is { } path)
        {
            await ConsumerReport.From(stats).WriteAsync(path, CancellationToken.None);
        }
    }

    // A handler takes deliveries until shutdown begins; the one in hand is finished (and acked) first.
    private async Task RunHandlerAsync(ChannelReader<Delivery> work, DeliveryHandler handler, CancellationToken stopTaking, CancellationToken abort)
    {
        await Task.Yield();
        await using var sender = senders.Create();
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
                        await handler.HandleAsync(delivery, sender, abort);
                    }
                    finally
                    {
                        metrics.HandlingEnded();
                    }
                }
            }
        }
        catch (OperationCanceledException) when (stopTaking.IsCancellationRequested || abort.IsCancellationRequested)
        {
        }
    }
}
