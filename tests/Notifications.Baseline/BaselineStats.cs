using System.Collections.Concurrent;
using System.Text.Json;

namespace Notifications.Baseline;

/// <summary>
/// Totals of this process and the JSON report the harness reads from Consumer:StatsFile, with the same
/// fields and meaning as the project's consumer's (delivered, windowDelivered, windowSeconds, latency
/// percentiles of outbox insert -> SMTP accepted). Each sender keeps its own latency list (its messages are
/// handled in sequence); the percentiles are exact, nearest rank, computed once at the end.
/// </summary>
internal sealed class BaselineStats
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };
    private readonly ConcurrentBag<List<double>> _latencies = [];
    private long _delivered;
    private long _duplicates;
    private long _deadLettered;
    private long _requeued;
    private long _firstDeliveredTicks;

    public long Delivered => Interlocked.Read(ref _delivered);

    public long Duplicates => Interlocked.Read(ref _duplicates);

    public long DeadLettered => Interlocked.Read(ref _deadLettered);

    public long Requeued => Interlocked.Read(ref _requeued);

    /// <summary>When the first notification was delivered (the killswitch window starts here), or null.</summary>
    public DateTimeOffset? FirstDeliveredAt =>
        Interlocked.Read(ref _firstDeliveredTicks) is var ticks and > 0 ? new DateTimeOffset(ticks, TimeSpan.Zero) : null;

    /// <summary>Deliveries inside the killswitch window, frozen when it closed (null: no window).</summary>
    public long? WindowDelivered { get; private set; }

    public TimeSpan? Window { get; private set; }

    /// <summary>A latency list for one sender, which alone appends to it.</summary>
    public List<double> NewLatencyList()
    {
        var list = new List<double>(4096);
        _latencies.Add(list);
        return list;
    }

    public void AddDelivered()
    {
        if (Interlocked.Increment(ref _delivered) == 1)
        {
            Interlocked.CompareExchange(ref _firstDeliveredTicks, DateTimeOffset.UtcNow.UtcTicks, 0);
        }
    }

    public void AddDuplicate() => Interlocked.Increment(ref _duplicates);

    public void AddDeadLettered() => Interlocked.Increment(ref _deadLettered);

    public void AddRequeued() => Interlocked.Increment(ref _requeued);

    public void CloseWindow(TimeSpan window)
    {
        WindowDelivered = Delivered;
        Window = window;
    }

    /// <summary>Writes the report; call after every sender stopped.</summary>
    public async Task WriteAsync(string path)
    {
        double[] sorted = [.. _latencies.SelectMany(l => l).Order()];
        var report = new
        {
            Delivered,
            Duplicates,
            DeadLettered,
            Requeued,
            FirstDeliveredAt,
            WindowDelivered,
            WindowSeconds = Window?.TotalSeconds,
            LatencyP50Ms = Percentile(sorted, 50),
            LatencyP95Ms = Percentile(sorted, 95),
            LatencyP99Ms = Percentile(sorted, 99),
            LatencyMaxMs = sorted.Length == 0 ? 0 : sorted[^1],
        };
        string temporary = path + ".tmp";
        await File.WriteAllTextAsync(temporary, JsonSerializer.Serialize(report, Json));
        File.Move(temporary, path, overwrite: true);
    }

    internal static double Percentile(double[] sorted, double percentile) =>
        sorted.Length == 0 ? 0 : sorted[Math.Max(0, (int)Math.Ceiling(sorted.Length * percentile / 100.0) - 1)];
}
