using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Notifications.Harness.Live;

/// <summary>The live runs as tables (connect and memory; steady flow; broadcast; CPU per notification by process), the medians, JSON and CSV.</summary>
internal static class LiveReport
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    public static void Print(IReadOnlyList<LiveResult> runs)
    {
        Console.WriteLine();
        Console.WriteLine("| clients / gateways | connected | connect s | upgrade p50 / p99 ms | gateway RSS before -> after MiB | KB per connection | offered / s | inserted | received | lost | duplicates | commit -> receive p50 / p99 / max ms | ack -> row gone p50 / p99 / max ms (samples) | broadcast: insert s, 50 / 90 / 100 % s, lost | closed | pending left | load before / after |");
        Console.WriteLine("|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---|");
        foreach (var r in runs)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {r.Clients:N0} / {r.Gateways} | {r.Connect.Connected:N0} | {r.Connect.Seconds:F1} | {r.Connect.P50Ms:F1} / {r.Connect.P99Ms:F1} | "
                + $"{r.GatewayRssBeforeMib:F0} -> {r.GatewayRssAfterMib:F0} | {r.GatewayKbPerConnection:F1} | {r.OfferedRate:N0} | {r.Inserted:N0} | {r.Received:N0} | {r.Lost:N0} | "
                + $"{r.Duplicates:N0} | {r.P50Ms:F1} / {r.P99Ms:F1} / {r.MaxMs:F1} | {r.AckGoneP50Ms:F1} / {r.AckGoneP99Ms:F1} / {r.AckGoneMaxMs:F1} ({r.AckSamples:N0}) | "
                + $"{r.BroadcastInsertSeconds:F2}, {S(r.Broadcast50Seconds)} / {S(r.Broadcast90Seconds)} / {S(r.Broadcast100Seconds)}, {r.BroadcastLost:N0} | "
                + $"{r.ClosedByGateway:N0} | {r.PendingLeft:N0} | {r.LoadBefore:F1} / {r.LoadAfter:F1} |"));
        }

        Console.WriteLine();
        Console.WriteLine("| phase | notifications | CPU us per notification: producer, consumer, gateway, broker, database; total | clients (the harness) | peak RSS MiB |");
        Console.WriteLine("|---|---:|---|---:|---|");
        foreach (var r in runs)
        {
            string rss = string.Join(", ", r.PeakRssMib.Select(m => string.Create(CultureInfo.InvariantCulture, $"{m.Key} {m.Value:F0}")));
            Console.WriteLine(Cpu("steady", r.SteadyCpu, rss));
            Console.WriteLine(Cpu("broadcast", r.BroadcastCpu, ""));
        }

        LiveStormReport.Print(runs);
    }

    public static void PrintMedians(LiveMedians m) => Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"\n  medians: connect {m.ConnectSeconds:F1} s; gateway {m.KbPerConnection:F1} KB per connection; commit -> receive p50 {m.P50Ms:F1} ms, "
        + $"p99 {m.P99Ms:F1} ms, max {m.MaxMs:F1} ms; ack -> row gone p99 {m.AckGoneP99Ms:F1} ms; broadcast 100 % in {S(m.Broadcast100Seconds)} s; "
        + $"CPU us per notification (steady) {m.SteadyTotalMicros:F0}: gateway {m.GatewayMicros:F0}, consumer {m.ConsumerMicros:F0}, producer {m.ProducerMicros:F0}")
        + (m.Storm is { } s
            ? string.Create(CultureInfo.InvariantCulture,
                $"; storm: all back {s.AllBackSeconds:F1} s after the drop, {s.Retries:F0} retries, {s.NeverBack:F0} never back, gateways up in {s.UpRuns} of {s.Runs} runs, "
                + $"lost {s.Lost:F0}, duplicates {s.Duplicates:F0}, commit -> receive p99 {s.P99Ms:F1} ms")
            : ""));

    public static void Write(string directory, string name, object document, IReadOnlyList<LiveResult> runs)
    {
        File.WriteAllText(Path.Combine(directory, name + ".json"), JsonSerializer.Serialize(document, Json));
        var csv = new StringBuilder("clients,gateways,connected,connect_failed,connect_s,upgrade_p50_ms,upgrade_p99_ms,gateway_rss_before_mib,gateway_rss_after_mib,"
            + "gateway_kb_per_connection,offered_rate,steady_s,inserted,received,lost,duplicates,p50_ms,p99_ms,max_ms,ack_samples,ack_gone_p50_ms,ack_gone_p99_ms,"
            + "ack_gone_max_ms,ack_not_gone,cpu_producer_us,cpu_consumer_us,cpu_gateway_us,cpu_broker_us,cpu_database_us,cpu_total_us,cpu_clients_us,"
            + "broadcast_expected,broadcast_received,broadcast_insert_s,broadcast_50_s,broadcast_90_s,broadcast_100_s,broadcast_cpu_total_us,broadcast_cpu_gateway_us,"
            + "closed_by_gateway,unreadable,pending_left,load_before,load_after," + LiveStormReport.CsvHeader + "\n");
        foreach (var r in runs)
        {
            var (c, b) = (r.SteadyCpu, r.BroadcastCpu);
            csv.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"{r.Clients},{r.Gateways},{r.Connect.Connected},{r.Connect.Failed},{r.Connect.Seconds:F2},{r.Connect.P50Ms:F2},{r.Connect.P99Ms:F2},"
                + $"{r.GatewayRssBeforeMib:F1},{r.GatewayRssAfterMib:F1},{r.GatewayKbPerConnection:F2},{r.OfferedRate},{r.SteadySeconds:F1},{r.Inserted},{r.Received},"
                + $"{r.Lost},{r.Duplicates},{r.P50Ms:F2},{r.P99Ms:F2},{r.MaxMs:F2},{r.AckSamples},{r.AckGoneP50Ms:F2},{r.AckGoneP99Ms:F2},{r.AckGoneMaxMs:F2},{r.AckNotGone},"
                + $"{c.ProducerMicros:F1},{c.ConsumerMicros:F1},{c.GatewayMicros:F1},{c.BrokerMicros:F1},{c.DatabaseMicros:F1},{c.TotalMicros:F1},{c.ClientsMicros:F1},"
                + $"{r.BroadcastExpected},{r.BroadcastReceived},{r.BroadcastInsertSeconds:F3},{r.Broadcast50Seconds:F3},{r.Broadcast90Seconds:F3},{r.Broadcast100Seconds:F3},"
                + $"{b.TotalMicros:F1},{b.GatewayMicros:F1},{r.ClosedByGateway},{r.Unreadable},{r.PendingLeft},{r.LoadBefore:F2},{r.LoadAfter:F2},{LiveStormReport.CsvColumns(r.Storm)}"));
        }

        File.WriteAllText(Path.Combine(directory, name + ".csv"), csv.ToString());
        Console.WriteLine($"\n  results: {Path.Combine(directory, name)}.json and .csv");
    }

    private static string Cpu(string phase, LiveCpu c, string rss) => string.Create(CultureInfo.InvariantCulture,
        $"| {phase} | {c.Received:N0} | {c.ProducerMicros:F0}, {c.ConsumerMicros:F0}, {c.GatewayMicros:F0}, {c.BrokerMicros:F0}, {c.DatabaseMicros:F0}; {c.TotalMicros:F0} | {c.ClientsMicros:F0} | {rss} |");

    private static string S(double? seconds) => seconds is { } s ? s.ToString("F2", CultureInfo.InvariantCulture) : "-";
}
