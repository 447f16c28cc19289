using System.Globalization;

namespace Notifications.Harness.Live;

/// <summary>The storms of live runs: a table of their own (after the runs' table) and their CSV columns (empty without a storm).</summary>
internal static class LiveStormReport
{
    public const string CsvHeader = "storm_within_s,storm_dropped,storm_back,storm_all_back_s,storm_retries,storm_never_back,storm_upgrade_p50_ms,storm_upgrade_p99_ms,"
        + "storm_upgrade_max_ms,storm_gateway_up,storm_health_polls,storm_health_answered,storm_health_ready,storm_longest_silence_ms,storm_inserted,storm_received,"
        + "storm_lost,storm_p50_ms,storm_p99_ms,storm_max_ms";

    public static void Print(IReadOnlyList<LiveResult> runs)
    {
        if (runs.All(r => r.Storm is null))
        {
            return;
        }

        Console.WriteLine();
        Console.WriteLine("| storm: clients dropped at once, back within | back | all back after the drop s | reconnect upgrade p50 / p99 / max ms | retries | never back | gateways up (health answered / ready / polls) | rows in the storm's window | lost | commit -> receive p50 / p99 / max ms |");
        Console.WriteLine("|---|---:|---:|---|---:|---:|---|---:|---:|---|");
        foreach (var s in runs.Select(r => r.Storm).OfType<LiveStormResult>())
        {
            var h = s.Health;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {s.Dropped:N0}, {s.WithinSeconds:F0} s | {s.Back:N0} | {s.AllBackSeconds:F1} | {s.UpgradeP50Ms:F1} / {s.UpgradeP99Ms:F1} / {s.UpgradeMaxMs:F0} | {s.Retries:N0} | "
                + $"{s.NeverBack:N0}{(s.FirstError is null ? "" : $" ({s.FirstError})")} | {(h.Up ? "yes" : "NO")} ({h.Answered:N0} / {h.Ready:N0} / {h.Polls:N0}) | {s.Inserted:N0} | {s.Lost:N0} | "
                + $"{s.P50Ms:F1} / {s.P99Ms:F1} / {s.MaxMs:F1} |"));
        }
    }

    /// <summary>The run's storm columns, or as many empty ones.</summary>
    public static string CsvColumns(LiveStormResult? s) => s is not { Health: var h }
        ? new string(',', CsvHeader.Count(c => c == ','))
        : string.Create(CultureInfo.InvariantCulture,
            $"{s.WithinSeconds:F1},{s.Dropped},{s.Back},{s.AllBackSeconds:F2},{s.Retries},{s.NeverBack},{s.UpgradeP50Ms:F2},{s.UpgradeP99Ms:F2},{s.UpgradeMaxMs:F2},"
            + $"{(h.Up ? 1 : 0)},{h.Polls},{h.Answered},{h.Ready},{h.LongestSilenceMs:F0},{s.Inserted},{s.Received},{s.Lost},{s.P50Ms:F2},{s.P99Ms:F2},{s.MaxMs:F2}");
}
