using System.Globalization;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Observability;

namespace Notifications.Shared.Retention;

/// <summary>
/// Runs <see cref="RetentionCleanup"/> in a worker every <see cref="RetentionOptions.Interval"/>, fleet-safe:
/// each worker asks for the lease (one UPDATE of one row); only the one that gets it runs, and nobody else
/// until the lease expires an interval later. It runs beside the hot path on its own connections, in small
/// batches that skip locked rows; a failure is logged and tried again next interval, the worker goes on.
/// </summary>
public sealed class RetentionService(
    IRetentionStore store, RetentionCleanup cleanup, IOptions<RetentionOptions> options, TimeProvider time, ILogger<RetentionService> logger)
    : BackgroundService
{
    private readonly string _holder = string.Create(CultureInfo.InvariantCulture, $"{Environment.MachineName}:{Environment.ProcessId}");

    /// <inheritdoc/>
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var settings = options.Value;
        if (!settings.Enabled)
        {
            return;
        }

        // Workers started together should not all ask at the same instant.
        await Task.Delay(TimeSpan.FromMilliseconds(Random.Shared.Next(0, 1000)), time, stoppingToken);
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                if (await store.TryLeaseAsync(_holder, settings.Interval, stoppingToken))
                {
                    await cleanup.RunAsync(stoppingToken);
                }
            }
            catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
            {
                if (ConnectionFailure.IsExpected(ex))
                {
                    SharedLog.RetentionFailedUnreachable(logger, ConnectionFailure.Describe(ex), settings.Interval);
                }
                else
                {
                    SharedLog.RetentionFailed(logger, settings.Interval, ex);
                }
            }

            await Task.Delay(settings.Interval, time, stoppingToken);
        }
    }
}
