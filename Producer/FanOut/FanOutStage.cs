using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using Notifications.Shared.Resilience;
using Polly.Retry;
using RabbitMQ.Client;

namespace Notifications.Producer.FanOut;

/// <summary>
/// The producer's fan-out stage (docs/fan-out.md): leases an audience row's job, and page by page writes the audience's
/// deliveries (one transaction), publishes them with confirms, and moves the job's cursor past them. A page at a time:
/// nothing holds a topic in memory or in one transaction, and a killed producer's job is resumed at its last confirmed
/// page (the page in flight published again, under the same ids). Paced by the work queue as the claim is: while it
/// holds <see cref="ProducerOptions.MaxQueued"/>, the stage waits and keeps its lease.
/// </summary>
internal sealed class FanOutStage(
    IFanOutStore store,
    BatchPublisher publisher,
    IOptions<FanOutOptions> options,
    IOptions<ProducerOptions> producerOptions,
    WorkQueueDepth depth,
    FanOutWake wake,
    FaultInjector faults,
    WorkerHealth health,
    TimeProvider time,
    ILogger<FanOutStage> logger)
{
    private static readonly TimeSpan FirstErrorDelay = TimeSpan.FromSeconds(1);
    private readonly FanOutOptions _options = options.Value;
    private readonly ProducerOptions _producer = producerOptions.Value;

    // One lease name per worker, not per process (LeaseOwner): a worker's lease that ran out while it was stuck (the database
    // away) is taken by another worker of the same process like any other's, and the stuck one's next call finds it gone.
    private int _workers;

    /// <summary>
    /// Runs <see cref="FanOutOptions.Concurrency"/> workers until shutdown on <paramref name="connection"/>, each with its own
    /// channel (opened by <paramref name="topology"/>) and job.
    /// </summary>
    public async Task RunAsync(IConnection connection, ProducerTopology topology, CancellationToken stoppingToken)
    {
        await Task.Yield();
        await Task.WhenAll(Enumerable.Range(0, _options.Concurrency).Select(_ => RunWorkerAsync(connection, topology, stoppingToken)));
    }

    private async Task RunWorkerAsync(IConnection connection, ProducerTopology topology, CancellationToken stoppingToken)
    {
        await Task.Yield();
        var worker = new Worker(LeaseOwner.New(string.Create(CultureInfo.InvariantCulture, $"worker-{Interlocked.Increment(ref _workers)}")));
        var retry = RetryUntilStopped.Build("producer-fan-out", time, RetryUntilStopped.Options(
            FirstErrorDelay, _producer.MaxErrorBackoff, jitter: true, handles: static _ => true, args => PageFailedAsync(worker, args)));
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                health.Beat();
                bool worked = await retry.ExecuteAsync(
                    static (state, token) => state.Stage.WorkOneJobAsync(state.Connection, state.Topology, state.Worker, token),
                    (Stage: this, Connection: connection, Topology: topology, Worker: worker),
                    stoppingToken);
                if (!worked)
                {
                    await wake.WaitAsync(_options.PollInterval, stoppingToken);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutdown: a page in flight is published again by whoever holds the job next, under the same ids.
        }
        finally
        {
            if (worker.Channel is not null)
            {
                await worker.Channel.DisposeAsync();
            }
        }
    }

    // Leases one job (or goes on with the one held) and works it until it ends or its lease is lost; false when there was none.
    private async ValueTask<bool> WorkOneJobAsync(IConnection connection, ProducerTopology topology, Worker worker, CancellationToken cancellationToken)
    {
        if (worker.Current is null)
        {
            worker.Current = await store.LeaseAsync(worker.Owner, _options.LeaseTime, cancellationToken);
            if (worker.Current is null)
            {
                return false;
            }

            // There may be more: the next idle worker looks too (a claim of many audience rows wakes the stage once).
            wake.Wake();
            FanOutLog.Started(logger, worker.Current.Id, worker.Current.Audience, worker.Current.Channels);
        }

        bool ended = await WorkAsync(connection, topology, worker, worker.Current, cancellationToken);
        worker.Current = null;
        return ended;
    }

    // Page after page until the job ends or its lease is lost (true either way); an exception leaves the job held.
    private async Task<bool> WorkAsync(IConnection connection, ProducerTopology topology, Worker worker, FanOutJob job, CancellationToken cancellationToken)
    {
        int pages = 0;
        long published = 0;
        while (true)
        {
            health.Beat();
            var page = await store.NextPageAsync(job, worker.Owner, _options.LeaseTime, _options.PageSize, cancellationToken);
            if (page is null)
            {
                FanOutLog.LeaseLost(logger, job.Id);
                return true;
            }

            if (!page.Finished)
            {
                worker.Channel ??= await topology.OpenChannelAsync(connection, cancellationToken);
                if (!await WaitForRoomAsync(worker, job, cancellationToken))
                {
                    FanOutLog.LeaseLost(logger, job.Id);
                    return true;
                }

                published += await PublishAsync(worker.Channel, job, page);
                pages++;
                faults.Reached("after-fan-out-page");
                if (!await store.AdvanceAsync(job, page, worker.Owner, _options.LeaseTime, cancellationToken))
                {
                    FanOutLog.LeaseLost(logger, job.Id);
                    return true;
                }
            }

            if (page.Last)
            {
                FanOutLog.Ended(logger, job.Id, pages, published);
                return true;
            }
        }
    }

    // The page's deliveries with confirms, bounded by the publish timeout (not by shutdown: a page begun is finished).
    private async Task<int> PublishAsync(IChannel channel, FanOutJob job, FanOutPage page)
    {
        var rows = FanOutDeliveries.Rows(job, page.Deliveries);
        using var timeout = new CancellationTokenSource(_producer.PublishTimeout);
        var rejects = await publisher.PublishAsync(channel, rows, batch: null, timeout.Token);
        foreach (var (row, reason) in rejects)
        {
            // The parent passed the same size check at its claim; a delivery is no larger (docs/fan-out.md).
            FanOutLog.DeliveryRejected(logger, job.Id, row.Id, reason);
        }

        if (!job.Parent.IsUrgent)
        {
            depth.Published(rows.Count - rejects.Count);
        }

        return rows.Count - rejects.Count;
    }

    // Back-pressure as the standard lane's (none for urgent rows, none with MaxQueued 0): while the work queue holds enough,
    // wait, renewing the lease. False: the lease is gone.
    private async Task<bool> WaitForRoomAsync(Worker worker, FanOutJob job, CancellationToken cancellationToken)
    {
        if (job.Parent.IsUrgent)
        {
            return true;
        }

        var renewed = time.GetTimestamp();
        while (!await depth.HasRoomAsync(worker.Channel!, cancellationToken))
        {
            health.Beat();
            if (time.GetElapsedTime(renewed) > _options.LeaseTime / 3)
            {
                if (!await store.RenewAsync(job, worker.Owner, _options.LeaseTime, cancellationToken))
                {
                    return false;
                }

                renewed = time.GetTimestamp();
            }

            await Task.Delay(_producer.PartialBatchDelay + TimeSpan.FromMilliseconds(20), time, cancellationToken);
        }

        return true;
    }

    private ValueTask PageFailedAsync(Worker worker, OnRetryArguments<object> args)
    {
        var ex = args.Outcome.Exception!;
        var delay = RetryUntilStopped.Delay(FirstErrorDelay, _producer.MaxErrorBackoff, args.AttemptNumber);
        if (ConnectionFailure.IsExpected(ex))
        {
            FanOutLog.PageFailedUnreachable(logger, ConnectionFailure.Describe(ex), delay);
        }
        else
        {
            FanOutLog.PageFailed(logger, delay, ex);
        }

        return worker.Channel is not null && ProducerTopology.IsSpent(worker.Channel, ex)
            ? DisposeChannelAsync(worker)
            : ValueTask.CompletedTask;
    }

    private static async ValueTask DisposeChannelAsync(Worker worker)
    {
        await worker.Channel!.DisposeAsync();
        worker.Channel = null;
    }

    /// <summary>
    /// One of the stage's workers: its AMQP channel, and the job it holds between tries (after a failed page, the database or
    /// the broker away, the next try goes on with it at once under the same lease, instead of waiting for the lease to run out).
    /// </summary>
    private sealed class Worker(string owner)
    {
        /// <summary>The name its leases are held under.</summary>
        public string Owner { get; } = owner;

        public IChannel? Channel { get; set; }

        public FanOutJob? Current { get; set; }
    }
}
