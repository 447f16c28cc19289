using System.Text.Json;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Benchmarking;

/// <summary>The JSON a consumer writes to <see cref="ConsumerOptions.StatsFile"/> on exit, read by the benchmark harness.</summary>
internal sealed record ConsumerReport(
    long Delivered,
    long Duplicates,
    long Retried,
    long DeadLettered,
    long Unknown,
    long RelayRejected,
    DateTimeOffset? FirstDeliveredAt,
    long? WindowDelivered,
    double? WindowSeconds,
    double LatencyP50Ms,
    double LatencyP95Ms,
    double LatencyP99Ms,
    double LatencyMaxMs)
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    public static ConsumerReport From(ConsumerStats stats) => new(
        stats.Delivered, stats.Duplicates, stats.Retried, stats.DeadLettered, stats.Unknown, stats.RelayRejected,
        stats.FirstDeliveredAt, stats.WindowDelivered, stats.Window?.TotalSeconds,
        stats.Latency.Percentile(50).TotalMilliseconds, stats.Latency.Percentile(95).TotalMilliseconds,
        stats.Latency.Percentile(99).TotalMilliseconds, stats.Latency.Max.TotalMilliseconds);

    public async Task WriteAsync(string path, CancellationToken cancellationToken)
    {
        string temporary = path + ".tmp";
        await File.WriteAllTextAsync(temporary, JsonSerializer.Serialize(this, Json), cancellationToken);
        File.Move(temporary, path, overwrite: true);
    }
}
