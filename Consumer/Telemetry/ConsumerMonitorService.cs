using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Consumer.Telemetry;

/// <summary>
/// Logs progress — rate, totals, in flight, the SMTP relay's breaker and, apart from it, the endpoints' and push providers'
/// breakers (each with the sends it held back), the SLO since the last report (<see cref="SloProgress"/>) — every
/// <see cref="OperationsOptions.ProgressInterval"/> while anything moves or a breaker is not closed.
/// </summary>
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
        var slo = new SloProgress(metrics.Hops);
        try
        {
            while (true)
            {
                await Task.Delay(interval, time, stoppingToken);
                if (Total() == last && metrics.InFlight == 0 && metrics.RelayState == 0 && metrics.DestinationBreakersOpen == 0)
                {
                    continue;
                }

                var (withinSlo, withinFast) = slo.Next();
                ConsumerLog.ProgressReport(logger, stats.Delivered, (stats.Delivered - delivered) / interval.TotalSeconds,
                    stats.Duplicates, stats.Retried, stats.DeadLettered, metrics.InFlight, BreakerState(metrics.RelayState), stats.RelayRejected,
                    metrics.DestinationBreakersOpen, stats.DestinationRejected, withinSlo, withinFast);
                (last, delivered) = (Total(), stats.Delivered);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    private static string BreakerState(int state) => state switch
    {
        0 => "closed",
        1 => "half-open",
        _ => "open",
    };

    private long Total() => stats.Delivered + stats.Duplicates + stats.Retried + stats.DeadLettered + stats.Unknown;
}
