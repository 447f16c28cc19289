using System.Globalization;
using System.Text.Json;
using Notifications.Shared.Observability.Hops;

namespace Notifications.Harness;

/// <summary>
/// The per-hop latency of a run from the workers' reports (their <c>hops</c> and <c>windows</c>): the bucket counts of every
/// worker merged per hop and lane, so the percentiles are the fleet's, not a maximum of per-worker figures.
/// </summary>
internal static class HopTable
{
    private static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    // The order a notification passes them.
    private static readonly string[] Order = ["claim_wait", "claim", "publish_confirm", "queue_wait", "send", "log_write", "ack", "end_to_end"];

    public static List<HopRow> Merge(IEnumerable<JsonElement> producers, IEnumerable<JsonElement> consumers) =>
    [
        .. Entries(producers, "producer").Concat(Entries(consumers, "consumer"))
            .GroupBy(e => (e.Worker, e.Entry.Hop, e.Entry.Lane))
            .Select(g => (g.Key, Snapshot: g.Select(e => e.Entry.ToSnapshot()).Aggregate((a, b) => a.Merge(b))))
            .OrderBy(h => Array.IndexOf(Order, h.Key.Hop)).ThenBy(h => h.Key.Lane == "all" ? "" : h.Key.Lane, StringComparer.Ordinal)
            .Select(h => new HopRow(h.Key.Worker, h.Key.Hop, h.Key.Lane, h.Snapshot.Count, h.Snapshot.Percentile(50), h.Snapshot.Percentile(95),
                h.Snapshot.Percentile(99), h.Snapshot.Max)),
    ];

    public static List<WindowRow> MergeWindows(IEnumerable<JsonElement> consumers)
    {
        var windows = consumers.Where(r => r.TryGetProperty("windows", out _))
            .SelectMany(r => r.GetProperty("windows").Deserialize<List<WindowEntry>>(Json)!)
            .GroupBy(w => w.Start)
            .OrderBy(g => g.Key)
            .Select(g => (Start: g.Key, Snapshot: g.Select(w => w.ToSnapshot()).Aggregate((a, b) => a.Merge(b))))
            .ToList();
        return [.. windows.Select(w => new WindowRow(w.Start, (w.Start - windows[0].Start).TotalSeconds, w.Snapshot.Count,
            w.Snapshot.Percentile(50), w.Snapshot.Percentile(99), w.Snapshot.Max))];
    }

    /// <summary>The table of the hops in <paramref name="lanes"/> (e.g. <c>all</c>, <c>urgent</c>).</summary>
    public static void Print(IReadOnlyList<HopRow>? hops, params string[] lanes)
    {
        if (hops is not { Count: > 0 })
        {
            return;
        }

        Console.WriteLine();
        Console.WriteLine("| hop | lane | count | p50 ms | p99 ms | max ms |");
        Console.WriteLine("|---|---|---:|---:|---:|---:|");
        foreach (var h in hops.Where(h => lanes.Contains(h.Lane)))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {h.Worker} {h.Hop} | {h.Lane} | {h.Count:N0} | {h.P50Ms:F2} | {h.P99Ms:F2} | {h.MaxMs:F2} |"));
        }

        Console.WriteLine("  (percentiles interpolated within histogram buckets: 0.25 ms wide below 1 ms, 1-2 ms up to 10 ms, then 20-50 % of the value; max exact)");
    }

    /// <summary>p99 per 5-second window as a text plot: a steady tail is a flat column, a spike one long bar.</summary>
    public static void PrintWindows(IReadOnlyList<WindowRow>? windows)
    {
        if (windows is not { Count: > 0 })
        {
            return;
        }

        double top = windows.Max(w => w.P99Ms);
        Console.WriteLine();
        Console.WriteLine("  end-to-end p99 per 5 s window (count, p50, p99, max ms):");
        foreach (var w in windows)
        {
            int bar = top <= 0 ? 0 : (int)Math.Round(40 * w.P99Ms / top);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  +{w.OffsetSeconds,4:F0} s {w.Count,7:N0} {w.P50Ms,9:F2} {w.P99Ms,9:F2} {w.MaxMs,9:F2} |{new string('#', bar)}"));
        }
    }

    private static IEnumerable<(string Worker, HopEntry Entry)> Entries(IEnumerable<JsonElement> reports, string worker) =>
        reports.Where(r => r.TryGetProperty("hops", out _))
            .SelectMany(r => r.GetProperty("hops").Deserialize<List<HopEntry>>(Json)!)
            .Select(e => (worker, e));
}
