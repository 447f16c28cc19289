using System.Runtime.CompilerServices;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using Notifications.Shared.Resilience;
using Polly;
using Polly.Retry;
using RabbitMQ.Client;

namespace Notifications.Producer;

/// <summary>
/// The producer loop: claim a batch, publish it with confirms, commit; again at once after a full
/// batch, after a short pause when the outbox is nearly or entirely empty (the urgent lane's pause also ends when
/// <see cref="UrgentListenerService"/> hears of an urgent row). A failed batch is logged,
/// rolled back and retried after a backoff (a Polly retry, <see cref="BatchRetry"/>); only shutdown ends the loop.
/// </summary>
internal sealed class OutboxPublisherService(
    BatchPublisher publisher,
    IOptions<ProducerOptions> options,
    IOptions<RabbitMqOptions> rabbitOptions,
    ProducerStats stats,
    UrgentWake urgentWake,
    FanOut.FanOutStage fanOut,
    FanOut.InClaimFanOut inClaim,
    WorkQueueDepth depth,
    ProducerMetrics metrics,
    WorkerHealth health,
    TimeProvider time,
    IHostApplicationLifetime lifetime,
    ILogger<OutboxPublisherService> logger) : BackgroundService
{
    private static readonly TimeSpan FirstErrorDelay = TimeSpan.FromSeconds(1);
    private readonly ProducerOptions _options = options.Value;
    private readonly ProducerTopology _topology = new(rabbitOptions.Value, logger);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        await using var connection = await RabbitConnector.ConnectAsync(rabbitOptions.Value, "notifications-producer", logger, time, stoppingToken);
        using var stall = RecoveryStallGuard.Attach(connection, logger, time, rabbitOptions.Value.RecoveryStallAfter, RecoveryStallGuard.StopWorker(lifetime));
        health.BrokerConnected(connection);
        // Behind the lanes: the jobs of the subscribers' pages they published end here, off their path.
        var endings = Task.Run(inClaim.RunEndingsAsync, CancellationToken.None);
        try
        {
            // Three loops side by side, each with its own channel: the urgent lane claims and publishes while a
            // standard batch still waits for its confirms, and the fan-out stage publishes audience rows' deliveries.
            await Task.WhenAll(
                RunLaneAsync(connection, ProducerLane.Standard(_options), stoppingToken),
                RunLaneAsync(connection, ProducerLane.Urgent(_options, urgentWake), stoppingToken),
                fanOut.RunAsync(connection, _topology, stoppingToken));
        }
        finally
        {
            inClaim.CompleteEndings();
            await endings;
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
        var channel = new StrongBox<IChannel?>();
        // One pipeline per lane, built once: each batch is one execution, so the pause starts again at a second after a success.
        var retry = BatchRetry(_options.MaxErrorBackoff, time, args => BatchFailedAsync(lane, channel, args));
        var pace = new LanePace(lane, _options, time);
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                int published = await retry.ExecuteAsync(
                    static (state, token) => state.Service.PublishBatchAsync(state.Connection, state.Lane, state.Channel, token),
                    (Service: this, Connection: connection, Lane: lane, Channel: channel),
                    stoppingToken);
                var pause = pace.After(published);
                if (pause > TimeSpan.Zero)
                {
                    await lane.PauseAsync(pause, stoppingToken);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutdown: a batch in progress was rolled back, or committed if all its confirms were in.
        }
        finally
        {
            if (channel.Value is not null)
            {
                // The subscribers' pages it published wait for their confirms on this channel.
                await inClaim.ConfirmedAsync();
                await channel.Value.DisposeAsync();
            }
        }
    }

    /// <summary>
    /// A failed batch (the database or the broker not reachable, a channel closed, confirms missing) is tried again until
    /// shutdown: after a second, doubling up to <paramref name="maxDelay"/>, each pause jittered to 80-120 %.
    /// </summary>
    internal static ResiliencePipeline BatchRetry(TimeSpan maxDelay, TimeProvider time, Func<OnRetryArguments<object>, ValueTask> onRetry) =>
        RetryUntilStopped.Build("producer-batch", time,
            RetryUntilStopped.Options(FirstErrorDelay, maxDelay, jitter: true, handles: static _ => true, onRetry));

    // One try: wait while the work queue holds enough (back-pressure, not a failure), then claim, publish and commit a batch.
    private async ValueTask<int> PublishBatchAsync(
        IConnection connection, ProducerLane lane, StrongBox<IChannel?> channel, CancellationToken cancellationToken)
    {
        while (true)
        {
            health.Beat();
            channel.Value ??= await _topology.OpenChannelAsync(connection, cancellationToken);
            if (!lane.Bounded || await depth.HasRoomAsync(channel.Value, cancellationToken))
            {
                int published = await publisher.PublishNextBatchAsync(channel.Value, lane, cancellationToken);
                stats.AddBatch(published);
                if (lane.Bounded)
                {
                    depth.Published(published);
                }

                return published;
            }

            // The consumers have enough to do: the rows wait in the outbox, where a later urgent row
            // still overtakes them, instead of in the broker.
            stats.AddHeldBack();
            await Task.Delay(_options.PartialBatchDelay + TimeSpan.FromMilliseconds(5), cancellationToken);
        }
    }

    private async ValueTask BatchFailedAsync(ProducerLane lane, StrongBox<IChannel?> channel, OnRetryArguments<object> args)
    {
        var ex = args.Outcome.Exception!;
        LogBatchFailed(lane, RetryUntilStopped.Delay(FirstErrorDelay, _options.MaxErrorBackoff, args.AttemptNumber), ex);
        stats.AddFailure();
        if (channel.Value is not null && ProducerTopology.IsSpent(channel.Value, ex))
        {
            await channel.Value.DisposeAsync();
            channel.Value = null;
        }
    }

    // While the database or the broker is not reachable (a stack still starting), one line per try, not a stack trace.
    private void LogBatchFailed(ProducerLane lane, TimeSpan delay, Exception ex)
    {
        if (ConnectionFailure.IsExpected(ex) || ex is TopologyMissingException)
        {
            ProducerLog.BatchFailedUnreachable(logger, lane.Name, ConnectionFailure.Describe(ex), delay);
        }
        else
        {
            ProducerLog.BatchFailed(logger, lane.Name, delay, ex);
        }
    }
}
