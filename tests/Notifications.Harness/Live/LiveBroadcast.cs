using System.Diagnostics;

namespace Notifications.Harness.Live;

/// <summary>
/// A broadcast to every connected client as it looks until topics support the live channel: one live row per subscriber, all
/// in one transaction; then watched until every client has its row (or <see cref="Patience"/>). The seconds from the commit
/// to 50 %, 90 % and 100 % received come from the arrivals once every client process has handed its own over.
/// </summary>
internal sealed class LiveBroadcast(LiveRows rows)
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);
    private long[] _ids = [];
    private long _committed;

    public long Expected => _ids.Length;

    /// <summary>How long the insert's transaction took, begin to commit, s.</summary>
    public double InsertSeconds { get; private set; }

    /// <summary>Inserts the rows, then waits until <paramref name="received"/> (all clients' count) grew by as many.</summary>
    public async Task RunAsync(string[] subscribers, Func<long> received)
    {
        long before = received();
        long started = Stopwatch.GetTimestamp();
        (_ids, _committed) = await rows.InsertAsync(subscribers);
        InsertSeconds = Stopwatch.GetElapsedTime(started, _committed).TotalSeconds;
        Console.WriteLine($"  broadcast: {_ids.Length:N0} rows in one transaction, committed in {InsertSeconds:F2} s");
        while (received() - before < _ids.Length && Stopwatch.GetElapsedTime(_committed) < Patience)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100));
        }
    }

    /// <summary>Received, and seconds from the commit to 50 %, 90 %, 100 % of the rows received (null: never).</summary>
    public (long Received, double? S50, double? S90, double? S100) Milestones(LiveArrivals arrivals)
    {
        var seconds = _ids.Select(arrivals.ArrivalOf).OfType<long>()
            .Select(at => Math.Max(0, Stopwatch.GetElapsedTime(_committed, at).TotalSeconds)).Order().ToList();
        return (seconds.Count, At(seconds, 0.50), At(seconds, 0.90), At(seconds, 1.00));
    }

    // Seconds until `share` of the rows had arrived, or null if they never did.
    private double? At(List<double> seconds, double share)
    {
        int needed = (int)Math.Ceiling(share * _ids.Length);
        return needed <= seconds.Count && needed > 0 ? seconds[needed - 1] : null;
    }
}
