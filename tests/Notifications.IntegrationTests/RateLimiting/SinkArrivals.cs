using Dapper;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// When each message reached the smtp-sink, by recipient domain: the dump file's last write (smtp-sink closes it
/// before it answers the final "."), and the domain of the message's To header.
/// </summary>
internal static class SinkArrivals
{
    public static Dictionary<string, List<DateTime>> ByDomain(SmtpSink sink)
    {
        var arrivals = new Dictionary<string, List<DateTime>>(StringComparer.OrdinalIgnoreCase);
        foreach (string file in sink.MessageFiles())
        {
            string domain = DomainOf(file);
            if (!arrivals.TryGetValue(domain, out var times))
            {
                arrivals[domain] = times = [];
            }

            times.Add(File.GetLastWriteTimeUtc(file));
        }

        foreach (var times in arrivals.Values)
        {
            times.Sort();
        }

        return arrivals;
    }

    /// <summary>Messages per second within [<paramref name="from"/>, <paramref name="from"/> + <paramref name="length"/>).</summary>
    public static double RateWithin(IReadOnlyList<DateTime> times, DateTime from, TimeSpan length) =>
        times.Count(t => t >= from && t < from + length) / length.TotalSeconds;

    /// <summary>Arrivals in each whole second [<paramref name="from"/> + k s, + 1 s) that ends by <paramref name="to"/>.</summary>
    public static int[] PerSecond(IReadOnlyList<DateTime> times, DateTime from, DateTime to)
    {
        int seconds = (int)Math.Floor((to - from).TotalSeconds);
        var counts = new int[Math.Max(0, seconds)];
        foreach (var t in times.Where(t => t >= from && t < from.AddSeconds(seconds)))
        {
            counts[(int)((t - from).Ticks / TimeSpan.TicksPerSecond)]++;
        }

        return counts;
    }

    /// <summary>The most arrivals in any window of <paramref name="length"/> (sliding: each window starts at an arrival).</summary>
    public static int MostInAnyWindow(IReadOnlyList<DateTime> sorted, TimeSpan length) => BusiestWindow(sorted, length).Count;

    /// <summary>The window of <paramref name="length"/> with the most arrivals: how many, and when it starts.</summary>
    public static (int Count, DateTime Start) BusiestWindow(IReadOnlyList<DateTime> sorted, TimeSpan length)
    {
        var busiest = (Count: 0, Start: default(DateTime));
        for (int first = 0, end = 0; first < sorted.Count; first++)
        {
            while (end < sorted.Count && sorted[end] < sorted[first] + length)
            {
                end++;
            }

            if (end - first > busiest.Count)
            {
                busiest = (end - first, sorted[first]);
            }
        }

        return busiest;
    }

    /// <summary>The times without any arrival within [<paramref name="from"/>, <paramref name="to"/>), in order.</summary>
    public static IEnumerable<TimeSpan> Gaps(IEnumerable<DateTime> times, DateTime from, DateTime to)
    {
        var last = from;
        foreach (var t in times.Where(t => t >= from && t < to).Order().Append(to))
        {
            yield return t - last;
            last = t;
        }
    }

    /// <summary>
    /// Inserts notifications in one statement, interleaved: of every <paramref name="every"/> rows, the first
    /// <paramref name="limitedPerEvery"/> go to <paramref name="limitedDomain"/>, the rest to <paramref name="freeDomain"/>.
    /// </summary>
    public static async Task<IReadOnlyList<long>> InsertAsync(
        int count, int every, int limitedPerEvery, string limitedDomain, string freeDomain)
    {
        await using var connection = await TestDatabase.OpenAsync();
        var ids = await connection.QueryAsync<long>($"""
            INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body)
            SELECT 'user' || g || '@' || CASE WHEN g % @Every < @Limited THEN @LimitedDomain ELSE @FreeDomain END,
                   'Rate #' || g, 'Hello ' || g
            FROM generate_series(1, @Count) AS g
            ORDER BY g
            RETURNING id
            """, new { Count = count, Every = every, Limited = limitedPerEvery, LimitedDomain = limitedDomain, FreeDomain = freeDomain });
        return ids.AsList();
    }

    /// <summary>Empties the fleet's GCRA rows and send windows (a test's limits start fresh).</summary>
    public static async Task ClearLimitsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.rate_limit; DELETE FROM {TestDatabase.Schema}.rate_limit_send");
    }

    private static string DomainOf(string file)
    {
        foreach (string line in File.ReadLines(file))
        {
            if (line.Length == 0)
            {
                break;
            }

            if (line.StartsWith("To:", StringComparison.OrdinalIgnoreCase))
            {
                string address = line[3..].Trim().Trim('<', '>');
                return address[(address.LastIndexOf('@') + 1)..].TrimEnd('>');
            }
        }

        return "";
    }
}
