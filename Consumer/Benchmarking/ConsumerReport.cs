using System.Text.Json;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Observability.Hops;

namespace Notifications.Consumer.Benchmarking;

/// <summary>
/// The JSON a consumer writes to <see cref="ConsumerOptions.StatsFile"/> on exit, read by the benchmark harness: totals,
/// end-to-end latency percentiles (from the <c>end_to_end</c> hop, all lanes), every hop per lane, and the end-to-end
/// latency per 5-second window, each with its bucket counts so that the harness can merge consumers exactly.
/// </summary>
internal sealed record ConsumerReport(
    long Delivered,
    long Duplicates,
    long Retried,
    long DeadLettered,
    long Unknown,
    long RelayRejected,
    long DestinationRejected,
    DateTimeOffset? FirstDeliveredAt,
    long? WindowDelivered,
    double? WindowSeconds,
    double LatencyP50Ms,
    double LatencyP95Ms,
    double LatencyP99Ms,
    double LatencyMaxMs,
    IReadOnlyList<HopEntry> Hops,
    IReadOnlyList<WindowEntry> Windows)
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    public static ConsumerReport From(ConsumerStats stats, HopRecorder hops)
    {
        var latency = HopEntry.From("end_to_end", "all", hops.Snapshot("end_to_end"));
        return new(
            stats.Delivered, stats.Duplicates, stats.Retried, stats.DeadLettered, stats.Unknown, stats.RelayRejected, stats.DestinationRejected,
            stats.FirstDeliveredAt, stats.WindowDelivered, stats.Window?.TotalSeconds,
            latency.P50Ms, latency.P95Ms, latency.P99Ms, latency.MaxMs, hops.Hops(), hops.Windows());
    }

    public async Task WriteAsync(string path, CancellationToken cancellationToken)
    {
        string temporary = path + ".tmp";
        await File.WriteAllTextAsync(temporary, JsonSerializer.Serialize(this, Json), cancellationToken);
        File.Move(temporary, path, overwrite: true);
    }
}
