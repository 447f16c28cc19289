namespace Notifications.Shared.Hosting;

/// <summary>
/// The loop of a cache kept in step with a table (the suppression list, the webhook endpoints, the outcome subscriptions) or of
/// a sweep: a refresh at once, then one every interval until the host stops. A failed refresh is reported and tried again at the next tick; the copy in memory
/// stays in use.
/// </summary>
public static class RefreshLoop
{
    /// <summary>Runs <paramref name="refresh"/> now, then every <paramref name="interval"/>; a failure goes to <paramref name="failed"/>.</summary>
    public static async Task RunAsync(
        TimeSpan interval, TimeProvider time, Func<CancellationToken, Task> refresh, Action<Exception> failed, CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(interval, time);
        do
        {
            try
            {
                await refresh(stoppingToken);
            }
            catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
            {
                failed(ex);
            }
        }
        while (await WaitAsync(timer, stoppingToken));
    }

    private static async Task<bool> WaitAsync(PeriodicTimer timer, CancellationToken stoppingToken)
    {
        try
        {
            return await timer.WaitForNextTickAsync(stoppingToken);
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
