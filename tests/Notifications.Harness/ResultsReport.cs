using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Notifications.Harness;

/// <summary>Prints the results table (the original experiment's columns plus latency) and writes JSON and CSV.</summary>
internal static class ResultsReport
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    public static void PrintTable(IReadOnlyList<RunResult> runs)
    {
        Console.WriteLine();
        Console.WriteLine("| producers | envelope | notifications produced | consumers x handlers x prefetch | messages consumed | window s | rate / min | CPU workers | CPU DB + broker | CPU sink | per CPU-s | p50 ms | p99 ms | peak RSS MiB | 90 % at s | sink / log / delivered | load |");
        Console.WriteLine("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|");
        foreach (var r in runs)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {r.Producers} | {r.Envelope} | {r.Produced:N0} | {r.Consumers} x {r.Handlers} x {r.Prefetch} | {r.Consumed:N0} | {r.WindowSeconds:F0} | {r.RatePerMinute:N0} | "
                + $"{r.WorkerCores:F2}/2 cores | {r.DbBrokerCores:F2}/2 cores | {r.SinkCpuSeconds / Math.Max(0.001, r.WallSeconds):F2} | {r.PerCpuSecond:N0} | "
                + $"{r.LatencyP50Ms:F1} | {r.LatencyP99Ms:F1} | {r.PeakRssMib:F0} | {(r.TimeTo90PercentSeconds is { } t ? t.ToString("F0", CultureInfo.InvariantCulture) : "-")} | "
                + $"{(r.SinkReceived is { } s ? s.ToString("N0", CultureInfo.InvariantCulture) : "-")} / {r.LogSent:N0} / {r.DeliveredTotal:N0} | {r.LoadAverage:F1} |"));
        }

        foreach (var r in runs.Where(r => r.Cpu is not null))
        {
            var c = r.Cpu!;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  CPU us per notification ({c.Delivered:N0} in the window): consumer {c.ConsumerMicros:F0}, producer {c.ProducerMicros:F0}, "
                + $"broker {c.BrokerMicros:F0}, database {c.DatabaseMicros:F0}, {(r.Receipts is null ? "sink" : $"{r.Channel} receiver")} {c.SinkMicros:F0}, total {c.TotalMicros:F0}"));
        }

        foreach (var r in runs.Where(r => r.Receipts is not null))
        {
            var k = r.Receipts!;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {r.Channel} receiver: {k.Requests:N0} requests, {k.Accepted:N0} accepted ({k.Distinct:N0} distinct ids, {k.Duplicates:N0} duplicates), "
                + $"{k.Refused:N0} refused, {k.Unidentified:N0} without an id; lost {r.Lost:N0} (sent in the delivery log, never accepted)"));
        }
    }

    public static void PrintCeilings(IReadOnlyList<CeilingResult> ceilings, RunResult? run)
    {
        Console.WriteLine();
        Console.WriteLine("| stage ceiling (alone on the box, same message size) | ceiling / min | pipeline stage / min | stage / ceiling |");
        Console.WriteLine("|---|---:|---:|---:|");
        foreach (var c in ceilings)
        {
            double? stage = run is null ? null : c.Stage switch
            {
                "db-claim" => run.Produced * 60.0 / Math.Max(0.001, run.WallSeconds),
                "smtp" when run.Sender == "smtp" => run.RatePerMinute,
                "smtp" => null,
                _ => run.RatePerMinute,
            };
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {c.Stage}: {c.Description} | {c.PerMinute:N0} | {(stage is { } s ? s.ToString("N0", CultureInfo.InvariantCulture) : "-")} | "
                + $"{(stage is { } r ? (r / c.PerMinute).ToString("P0", CultureInfo.InvariantCulture) : "-")} |"));
        }
    }

    public static void Write(string directory, string name, object document, IReadOnlyList<RunResult> runs)
    {
        File.WriteAllText(Path.Combine(directory, name + ".json"), JsonSerializer.Serialize(document, Json));
        var csv = new StringBuilder("kind,label,sender,delivery_mode,producers,envelope,messages_produced,consumers,handlers,prefetch,batch,rows,"
            + "messages_consumed,window_s,rate_per_min,cpu_workers_s,cpu_db_broker_s,cpu_sink_s,wall_s,per_cpu_s,p50_ms,p95_ms,p99_ms,max_ms,"
            + "peak_rss_mib,time_to_90pct_s,sink_received,log_sent,delivered_total,offered_rate,load_average,channel,duplicates,refused\n");
        foreach (var r in runs)
        {
            csv.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"{r.Kind},{r.Label},{r.Sender},{r.DeliveryMode},{r.Producers},{r.Envelope},{r.Produced},{r.Consumers},{r.Handlers},{r.Prefetch},{r.Batch},{r.Rows},"
                + $"{r.Consumed},{r.WindowSeconds:F1},{r.RatePerMinute:F0},{r.WorkerCpuSeconds:F1},{r.DbBrokerCpuSeconds:F1},{r.SinkCpuSeconds:F1},{r.WallSeconds:F1},"
                + $"{r.PerCpuSecond:F0},{r.LatencyP50Ms:F2},{r.LatencyP95Ms:F2},{r.LatencyP99Ms:F2},{r.LatencyMaxMs:F2},{r.PeakRssMib:F0},"
                + $"{r.TimeTo90PercentSeconds:F1},{r.SinkReceived},{r.LogSent},{r.DeliveredTotal},{r.OfferedRate},{r.LoadAverage:F1},"
                + $"{r.Channel},{r.Receipts?.Duplicates},{r.Receipts?.Refused}"));
        }

        File.WriteAllText(Path.Combine(directory, name + ".csv"), csv.ToString());
        Console.WriteLine($"\n  results: {Path.Combine(directory, name)}.json and .csv");
    }
}
