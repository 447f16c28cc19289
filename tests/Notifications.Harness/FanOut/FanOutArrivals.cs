using System.Globalization;

namespace Notifications.Harness.FanOut;

/// <summary>
/// The figures of a fan-out run from arrival times (Unix microseconds, one machine's clock): how long after the insert's commit
/// a share of the expected devices had received it, and per notification of a steady flow, the insert to its last device.
/// </summary>
internal static class FanOutArrivals
{
    /// <summary>
    /// Seconds from <paramref name="committedAt"/> to the arrival that made <paramref name="fraction"/> of <paramref name="expected"/>
    /// devices (at least one), or null when fewer than that arrived. <paramref name="sorted"/>: ascending.
    /// </summary>
    public static double? SecondsTo(long committedAt, IReadOnlyList<long> sorted, long expected, double fraction)
    {
        long needed = Math.Max(1, (long)Math.Ceiling(fraction * expected - 1e-9));
        return sorted.Count >= needed ? (sorted[(int)(needed - 1)] - committedAt) / 1e6 : null;
    }

    /// <summary>Devices a minute, from the commit to the last arrival (0 without any).</summary>
    public static double PerMinute(long committedAt, IReadOnlyList<long> sorted) =>
        sorted.Count == 0 || sorted[^1] <= committedAt ? 0 : sorted.Count * 60e6 / (sorted[^1] - committedAt);

    /// <summary>
    /// For each notification inserted (its id and commit time) whose <paramref name="devices"/> devices all arrived, milliseconds
    /// from the commit to the last of them, ascending; and how many had fewer devices arrive (incomplete).
    /// </summary>
    public static (List<double> LastDeviceMs, int Incomplete) LastDevice(
        IReadOnlyDictionary<string, long> committedAt, IReadOnlyDictionary<string, long[]> arrivals, int devices)
    {
        var latencies = new List<double>(committedAt.Count);
        int incomplete = 0;
        foreach (var (id, at) in committedAt)
        {
            if (arrivals.TryGetValue(id, out var times) && times.Length >= devices)
            {
                latencies.Add((times.Max() - at) / 1000.0);
            }
            else
            {
                incomplete++;
            }
        }

        latencies.Sort();
        return (latencies, incomplete);
    }

    /// <summary>
    /// Each notification inserted, in commit order, as CSV with a header: its id, its commit (Unix microseconds) and the
    /// milliseconds to its first and last device (empty when none arrived).
    /// </summary>
    public static IEnumerable<string> RowsCsv(IReadOnlyDictionary<string, long> committedAt, IReadOnlyDictionary<string, long[]> arrivals) =>
        committedAt.OrderBy(c => c.Value).Select(c => arrivals.TryGetValue(c.Key, out var times) && times.Length > 0
                ? string.Create(CultureInfo.InvariantCulture, $"{c.Key},{c.Value},{(times.Min() - c.Value) / 1000.0:F2},{(times.Max() - c.Value) / 1000.0:F2}")
                : string.Create(CultureInfo.InvariantCulture, $"{c.Key},{c.Value},,"))
            .Prepend("id,committed_unix_us,first_device_ms,last_device_ms");
}
