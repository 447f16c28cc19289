using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Notifications.Harness.FanOut;

/// <summary>The fan-out runs as a table (topic milestones or single-subscriber latency, CPU per device by process, peak RSS), JSON and CSV.</summary>
internal static class FanOutReport
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    public static void Print(IReadOnlyList<FanOutResult> runs)
    {
        Console.WriteLine();
        Console.WriteLine("| kind | channel | subscribers x devices | page | expected | published | received | duplicates | lost | 50 % s | 90 % s | 100 % s | p50 / p99 / max ms (insert -> last device) | devices / min | CPU us per device: consumer, producer, broker, database, receiver; total | peak RSS MiB | load before / after |");
        Console.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|---|");
        foreach (var r in runs)
        {
            var c = r.Cpu;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {r.Kind} | {r.Channel} | {r.Subscribers:N0} x {r.DevicesPerSubscriber} | {(r.PageSize is { } p ? p.ToString(CultureInfo.InvariantCulture) : "default")} | "
                + $"{r.Expected:N0} | {r.Published:N0} | {r.Received:N0} | {r.Duplicates:N0} | {r.Lost:N0} | {S(r.Seconds50)} | {S(r.Seconds90)} | {S(r.Seconds100)} | "
                + $"{(r.Kind == "single" ? $"{r.LastDeviceP50Ms:F1} / {r.LastDeviceP99Ms:F1} / {r.LastDeviceMaxMs:F1}" : "-")} | {r.RatePerMinute:N0} | "
                + $"{c.ConsumerMicros:F0}, {c.ProducerMicros:F0}, {c.BrokerMicros:F0}, {c.DatabaseMicros:F0}, {c.SinkMicros:F0}; {c.TotalMicros:F0} | "
                + $"{string.Join(", ", r.PeakRssMib.Select(m => $"{m.Key} {m.Value:F0}"))} | {r.LoadBefore:F1} / {r.LoadAfter:F1} |"));
        }

        foreach (var r in runs.Where(r => r.Kind == "topic"))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  topic: claimed {S(r.ClaimedAfterSeconds)} s after the commit, last page confirmed at {S(r.LastPageAfterSeconds)} s; wall {r.WallSeconds:F1} s"));
        }
    }

    public static void Write(string directory, string name, object document, IReadOnlyList<FanOutResult> runs)
    {
        File.WriteAllText(Path.Combine(directory, name + ".json"), JsonSerializer.Serialize(document, Json));
        var csv = new StringBuilder("kind,channel,subscribers,devices_per_subscriber,page_size,producers,consumers,handlers,inserted,expected,published,"
            + "received,duplicates,lost,refused,s_50pct,s_90pct,s_100pct,claimed_after_s,last_page_after_s,devices_per_min,offered_rate,incomplete,"
            + "last_device_p50_ms,last_device_p99_ms,last_device_max_ms,cpu_consumer_us,cpu_producer_us,cpu_broker_us,cpu_database_us,cpu_receiver_us,"
            + "cpu_total_us,peak_rss_max_mib,wall_s,load_before,load_after\n");
        foreach (var r in runs)
        {
            var c = r.Cpu;
            csv.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"{r.Kind},{r.Channel},{r.Subscribers},{r.DevicesPerSubscriber},{r.PageSize},{r.Producers},{r.Consumers},{r.Handlers},{r.Inserted},{r.Expected},"
                + $"{r.Published},{r.Received},{r.Duplicates},{r.Lost},{r.Refused},{r.Seconds50:F2},{r.Seconds90:F2},{r.Seconds100:F2},{r.ClaimedAfterSeconds:F3},"
                + $"{r.LastPageAfterSeconds:F2},{r.RatePerMinute:F0},{r.OfferedRate},{r.Incomplete},{r.LastDeviceP50Ms:F2},{r.LastDeviceP99Ms:F2},{r.LastDeviceMaxMs:F2},"
                + $"{c.ConsumerMicros:F1},{c.ProducerMicros:F1},{c.BrokerMicros:F1},{c.DatabaseMicros:F1},{c.SinkMicros:F1},{c.TotalMicros:F1},"
                + $"{(r.PeakRssMib.Count == 0 ? 0 : r.PeakRssMib.Values.Max()):F0},{r.WallSeconds:F1},{r.LoadBefore:F2},{r.LoadAfter:F2}"));
        }

        File.WriteAllText(Path.Combine(directory, name + ".csv"), csv.ToString());
        Console.WriteLine($"\n  results: {Path.Combine(directory, name)}.json and .csv");
    }

    private static string S(double? seconds) => seconds is { } s ? s.ToString("F1", CultureInfo.InvariantCulture) : "-";
}
