using System.Diagnostics;

namespace Notifications.Harness.Live;

/// <summary>
/// A reconnect storm on one process's clients: at <c>dropAt</c> (a <see cref="Stopwatch"/> timestamp, CLOCK_MONOTONIC: the
/// same moment for the harness and its client processes) every connection is dropped at once, as a network blip between the
/// apps and the gateway drops them; each client then connects again at a moment drawn uniformly from the next
/// <c>within</c>, with a fresh token. A failed attempt (refused, timed out) is retried after a full-jitter back-off, as the
/// client libraries do, until <see cref="GiveUp"/> past the window; a client still not back then is a failure.
/// </summary>
internal sealed class LiveStorm(LiveClients clients)
{
    private static readonly TimeSpan GiveUp = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan AttemptTimeout = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan BaseDelay = TimeSpan.FromMilliseconds(500);
    private static readonly TimeSpan MaxDelay = TimeSpan.FromSeconds(5);

    /// <summary>How long past the window a client keeps trying (and so how long the harness waits for a client process's storm).</summary>
    public static TimeSpan Patience(TimeSpan within) => within + GiveUp + AttemptTimeout;

    public async Task<LiveStormTimes> RunAsync(long dropAt, TimeSpan within)
    {
        var connections = clients.Connections;
        var backMs = new double[connections.Count];
        var upgradeMs = new double[connections.Count];
        int retries = 0;
        string? firstError = null;
        await Task.Delay(Until(dropAt));
        await Task.WhenAll(connections.Select(c => c.DropAsync()));
        await Task.WhenAll(connections.Select(async (connection, i) =>
        {
            await Task.Delay(Until(dropAt + (long)(Random.Shared.NextDouble() * within.TotalSeconds * Stopwatch.Frequency)));
            for (int attempt = 0; ; attempt++)
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(clients.Stopping);
                timeout.CancelAfter(AttemptTimeout);
                try
                {
                    upgradeMs[i] = await clients.ConnectAsync(connection, timeout.Token);
                    backMs[i] = Stopwatch.GetElapsedTime(dropAt).TotalMilliseconds;
                    return;
                }
                catch (Exception ex) when (LiveClients.IsConnectFailure(ex) || (ex is OperationCanceledException && !clients.Stopping.IsCancellationRequested))
                {
                    Interlocked.CompareExchange(ref firstError, ex is OperationCanceledException ? "no upgrade within 10 s" : ex.GetBaseException().Message, null);
                    if (Stopwatch.GetElapsedTime(dropAt) > within + GiveUp)
                    {
                        backMs[i] = double.NaN;
                        return;
                    }

                    Interlocked.Increment(ref retries);
                    await Task.Delay(Jitter(attempt));
                }
            }
        }));
        var back = backMs.Where(ms => !double.IsNaN(ms)).ToList();
        var upgrades = upgradeMs.Where((_, i) => !double.IsNaN(backMs[i])).ToList();
        return new LiveStormTimes(back, upgrades, retries, connections.Count - back.Count, firstError);
    }

    // From now until the timestamp `at` (zero if it has passed).
    private static TimeSpan Until(long at) => TimeSpan.FromSeconds(Math.Max(0, (double)(at - Stopwatch.GetTimestamp()) / Stopwatch.Frequency));

    // Random between zero and min(MaxDelay, BaseDelay x 2^attempt): retries of clients that failed together spread out.
    private static TimeSpan Jitter(int attempt) =>
        TimeSpan.FromMilliseconds(Random.Shared.NextDouble() * Math.Min(MaxDelay.TotalMilliseconds, BaseDelay.TotalMilliseconds * Math.Pow(2, Math.Min(attempt, 10))));
}
