using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Producer;

/// <summary>
/// The producer loop: claim a batch, publish it with confirms, commit; again at once after a full
/// batch, after a short pause when the outbox is nearly or entirely empty. A failed batch is logged,
/// rolled back and retried after a backoff; only shutdown ends the loop.
/// </summary>
internal sealed class OutboxPublisherService(
    BatchPublisher publisher,
    IOptions<ProducerOptions> options,
    IOptions<RabbitMqOptions> rabbitOptions,
    ProducerStats stats,
    ProducerMetrics metrics,
    WorkerHealth health,
    ILogger<OutboxPublisherService> logger) : BackgroundService
{
    private readonly ProducerOptions _options = options.Value;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        await using var connection = await RabbitConnector.ConnectAsync(rabbitOptions.Value, "notifications-producer", logger, stoppingToken);
        health.BrokerConnected(connection);
        try
        {
            // Two loops side by side, each with its own channel: the urgent lane claims and publishes while a
            // standard batch still waits for its confirms.
            await Task.WhenAll(
                RunLaneAsync(connection, ProducerLane.Standard(_options, rabbitOptions.Value.Queue), stoppingToken),
                RunLaneAsync(connection, ProducerLane.Urgent(_options), stoppingToken));
        }
        finally
        {
            ProducerLog.Stopped(logger, stats.Published);
            if (_options.StatsFile is { } path)
            {
                await File.WriteAllTextAsync(path, stats.ToJson(metrics.Recorder.Hops()), CancellationToken.None);
            }
        }
    }

    private async Task RunLaneAsync(IConnection connection, ProducerLane lane, CancellationToken stoppingToken)
    {
        await Task.Yield();
        IChannel? channel = null;
        var idleDelay = lane.IdleDelay;
        var errorDelay = TimeSpan.FromSeconds(1);
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                health.Beat();
                try
                {
                    channel ??= await OpenChannelAsync(connection, stoppingToken);
                    if (lane.BoundedBy is { } queue && await QueuedAsync(channel, queue) >= _options.MaxQueued)
                    {
                        // The consumers have enough to do: the rows wait in the outbox, where a later urgent row
                        // still overtakes them, instead of in the broker.
                        stats.AddHeldBack();
                        await Task.Delay(_options.PartialBatchDelay + TimeSpan.FromMilliseconds(5), stoppingToken);
                        continue;
                    }

                    int published = await publisher.PublishNextBatchAsync(channel, lane, stoppingToken);
                    stats.AddBatch(published);
                    errorDelay = TimeSpan.FromSeconds(1);
                    if (published == lane.BatchSize)
                    {
                        idleDelay = lane.IdleDelay;
                        continue;
                    }

                    var pause = published > 0 ? Min(_options.PartialBatchDelay, lane.MaxIdleDelay) : idleDelay;
                    idleDelay = published > 0 ? lane.IdleDelay : Min(idleDelay * 2, lane.MaxIdleDelay);
                    await Task.Delay(pause, stoppingToken);
                }
                catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
                {
                    LogBatchFailed(lane, errorDelay, ex);
                    stats.AddFailure();
                    // A channel that saw an error (a closed channel, a return after a queue was deleted)
                    // is replaced, and the topology declared again with it.
                    if (channel is not null && (!channel.IsOpen || ex is PublishException or AlreadyClosedException))
                    {
                        await channel.DisposeAsync();
                        channel = null;
                    }

                    await Task.Delay(Jitter(errorDelay), stoppingToken);
                    errorDelay = Min(errorDelay * 2, _options.MaxErrorBackoff);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutdown: a batch in progress was rolled back, or committed if all its confirms were in.
        }
        finally
        {
            if (channel is not null)
            {
                await channel.DisposeAsync();
            }
        }
    }

    private async Task<IChannel> OpenChannelAsync(IConnection connection, CancellationToken cancellationToken)
    {
        // Tracking on: each publish's task completes with its confirm. No client-side rate limiter:
        // the batch size already bounds the publishes in flight.
        var channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true,
                outstandingPublisherConfirmationsRateLimiter: null),
            cancellationToken);
        await RabbitTopology.DeclareAsync(channel, rabbitOptions.Value, cancellationToken);
        return channel;
    }

    // About how many notifications wait ready in the queue (messages x the envelope size).
    private async Task<long> QueuedAsync(IChannel channel, string queue) => (long)await channel.MessageCountAsync(queue) * _options.EnvelopeSize;

    // While the database or the broker is not reachable (a stack still starting), one line per try, not a stack trace.
    private void LogBatchFailed(ProducerLane lane, TimeSpan delay, Exception ex)
    {
        if (ConnectionFailure.IsExpected(ex))
        {
            ProducerLog.BatchFailedUnreachable(logger, lane.Name, ConnectionFailure.Describe(ex), delay);
        }
        else
        {
            ProducerLog.BatchFailed(logger, lane.Name, delay, ex);
        }
    }

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;

    private static TimeSpan Jitter(TimeSpan delay) => delay * (0.8 + (Random.Shared.NextDouble() * 0.4));
}
