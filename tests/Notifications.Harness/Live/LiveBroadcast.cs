using System.Diagnostics;

namespace Notifications.Harness.Live;

/// <summary>
/// A broadcast to every connected client as it looks until topics support the live channel: one live row per subscriber, all
/// in one transaction; then watched until every client has its row (or <see cref="Patience"/>), and the seconds from the
/// commit to 50 %, 90 % and 100 % received.
/// </summary>
internal sealed class LiveBroadcast(LiveRows rows, LiveArrivals arrivals)
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);

    public async Task<(long Expected, long Received, double InsertSeconds, double? S50, double? S90, double? S100)> RunAsync(string[] subscribers)
    {
        long before = arrivals.Received;
        long started = Stopwatch.GetTimestamp();
        var (ids, committed) = await rows.InsertAsync(subscribers);
        double insertSeconds = Stopwatch.GetElapsedTime(started, committed).TotalSeconds;
        Console.WriteLine($"  broadcast: {ids.Length:N0} rows in one transaction, committed in {insertSeconds:F2} s");
        while (arrivals.Received - before < ids.Length && Stopwatch.GetElapsedTime(committed) < Patience)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100));
        }

        var seconds = ids.Select(arrivals.ArrivalOf).OfType<long>().Select(at => Math.Max(0, Stopwatch.GetElapsedTime(committed, at).TotalSeconds)).Order().ToList();
        return (ids.Length, seconds.Count, insertSeconds, At(seconds, ids.Length, 0.50), At(seconds, ids.Length, 0.90), At(seconds, ids.Length, 1.00));
    }

    // Seconds until `share` of `expected` had arrived, or null if they never did.
    private static double? At(List<double> seconds, long expected, double share)
    {
        int needed = (int)Math.Ceiling(share * expected);
        return needed <= seconds.Count && needed > 0 ? seconds[needed - 1] : null;
    }
}
