using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Consumer;

/// <summary>Logs progress — rate, totals, in flight, the SLO — every <see cref="OperationsOptions.ProgressInterval"/> while anything moves.</summary>
internal sealed class ConsumerMonitorService(
    ConsumerStats stats, ConsumerMetrics metrics, IOptions<OperationsOptions> options, TimeProvider time,
    ILogger<ConsumerMonitorService> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var interval = options.Value.ProgressInterval;
        if (interval <= TimeSpan.Zero)
        {
            return;
        }

        long last = Total();
        long delivered = stats.Delivered;
        try
        {
            while (true)
            {
                await Task.Delay(interval, time, stoppingToken);
                if (Total() == last && metrics.InFlight == 0)
                {
                    continue;
                }

                var slo = metrics.Slo.Snapshot(time.GetUtcNow());
                ConsumerLog.ProgressReport(logger, stats.Delivered, (stats.Delivered - delivered) / interval.TotalSeconds,
                    stats.Duplicates, stats.Retried, stats.DeadLettered, metrics.InFlight, slo.SloRatio, slo.FastRatio);
                (last, delivered) = (Total(), stats.Delivered);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    private long Total() => stats.Delivered + stats.Duplicates + stats.Retried + stats.DeadLettered + stats.Unknown;
}
