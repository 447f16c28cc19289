using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Observability;

namespace Notifications.Producer;

/// <summary>
/// Samples the outbox backlog for its gauge (one <c>count(*)</c> per <see cref="OperationsOptions.BacklogInterval"/>)
/// and logs progress — rate and totals — every <see cref="OperationsOptions.ProgressInterval"/> while anything moves.
/// </summary>
internal sealed class ProducerMonitorService(
    IOutboxStore store, ProducerMetrics metrics, ProducerStats stats, IOptions<OperationsOptions> options,
    TimeProvider time, ILogger<ProducerMonitorService> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var o = options.Value;
        long lastPublished = stats.Published;
        long lastLogged = time.GetTimestamp();
        long lastBacklog = long.MinValue;
        try
        {
            while (true)
            {
                await SampleBacklogAsync(stoppingToken);
                var since = time.GetElapsedTime(lastLogged);
                if (o.ProgressInterval > TimeSpan.Zero && since >= o.ProgressInterval)
                {
                    long published = stats.Published;
                    if (published != lastPublished || metrics.Backlog != lastBacklog)
                    {
                        ProducerLog.ProgressReport(logger, published, (published - lastPublished) / since.TotalSeconds,
                            stats.Batches, stats.Failures, metrics.Backlog);
                    }

                    (lastPublished, lastBacklog, lastLogged) = (published, metrics.Backlog, time.GetTimestamp());
                }

                await Task.Delay(o.BacklogInterval, time, stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    private async Task SampleBacklogAsync(CancellationToken stoppingToken)
    {
        try
        {
            metrics.SetBacklog(await store.CountAsync(stoppingToken));
        }
        catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
        {
            // The publisher loop reports database trouble itself; the gauge keeps its last value.
            if (ConnectionFailure.IsExpected(ex))
            {
                ProducerLog.BacklogSampleUnreachable(logger, ConnectionFailure.Describe(ex));
            }
            else
            {
                ProducerLog.BacklogSampleFailed(logger, ex);
            }
        }
    }
}
