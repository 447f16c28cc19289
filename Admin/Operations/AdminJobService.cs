using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Notifications.Admin.Operations;

/// <summary>
/// Hosts <see cref="AdminJobRunner"/> in a long-running process (the console): runs the open jobs one after the other and
/// looks for new ones every <see cref="PollInterval"/>. Each replica may host one; the claim keeps a job to one of them.
/// </summary>
internal sealed partial class AdminJobService(AdminJobRunner runner, ILogger<AdminJobService> logger) : BackgroundService
{
    public static readonly TimeSpan PollInterval = TimeSpan.FromSeconds(2);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                if (await runner.RunNextAsync(null, null, stoppingToken) is { } job)
                {
                    JobEnded(logger, job.Id, job.Kind, job.State, job.Done, job.Failed, job.LastError);
                    continue;
                }
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex)
            {
                // The database or broker unreachable: logged, then tried again after the interval.
                RunFailed(logger, ex);
            }

            await Task.Delay(PollInterval, stoppingToken).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
    }

    [LoggerMessage(9101, LogLevel.Information, "Admin job {JobId} ({Kind}) ended {State}: {Done} done, {Failed} not found; {Error}")]
    private static partial void JobEnded(ILogger logger, long jobId, string kind, string state, long done, long failed, string? error);

    [LoggerMessage(9102, LogLevel.Warning, "Admin job runner: claiming or running a job failed; trying again shortly")]
    private static partial void RunFailed(ILogger logger, Exception exception);
}
