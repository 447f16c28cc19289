using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Benchmarking;

/// <summary>
/// Measures one minute the way the original experiment did: the window opens with this process's
/// first delivery and, <see cref="ConsumerOptions.RunFor"/> later, the totals are frozen and the
/// process shuts down gracefully.
/// </summary>
internal sealed class KillSwitchService(IOptions<ConsumerOptions> options, ConsumerStats stats, TimeProvider time, IHostApplicationLifetime lifetime)
    : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (options.Value.RunFor is not { } runFor)
        {
            return;
        }

        try
        {
            while (stats.FirstDeliveredAt is null)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(20), time, stoppingToken);
            }

            var end = stats.FirstDeliveredAt.Value + runFor;
            var wait = end - time.GetUtcNow();
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait, time, stoppingToken);
            }

            stats.CloseWindow(runFor);
            lifetime.StopApplication();
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }
}
