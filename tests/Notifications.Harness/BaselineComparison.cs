using System.Globalization;

namespace Notifications.Harness;

/// <summary>
/// <c>run --baseline</c>: the median run of ours against the median run of the original experiment's
/// consumer, measured alternately in the same invocation (same machine, broker, database, sink and rows).
/// Rate ratio above 1: ours delivers more per minute; CPU ratio below 1: ours spends less per notification.
/// </summary>
internal sealed record BaselineComparison(RunResult Ours, RunResult Original)
{
    /// <summary>"ours / original" of the median rates (notifications per minute in the killswitch window).</summary>
    public double RateRatio => Original.RatePerMinute <= 0 ? 0 : Ours.RatePerMinute / Original.RatePerMinute;

    /// <summary>"ours / original" of the consumer processes' CPU µs per notification.</summary>
    public double? ConsumerCpuRatio => Ratio(c => c.ConsumerMicros);

    /// <summary>"ours / original" of the whole pipeline's CPU µs per notification (workers, broker, database, sink).</summary>
    public double? TotalCpuRatio => Ratio(c => c.TotalMicros);

    public void Print()
    {
        Console.WriteLine();
        Console.WriteLine("| median run | ours | original (baseline) | ours / original |");
        Console.WriteLine("|---|---:|---:|---:|");
        Row("consumers x handlers, prefetch", $"{Ours.Consumers} x {Ours.Handlers}, {Ours.Prefetch}", $"{Original.Consumers} x {Original.Handlers}, {Original.Prefetch}", null);
        Row("messages consumed in the window", Ours.Consumed.ToString("N0", CultureInfo.InvariantCulture), Original.Consumed.ToString("N0", CultureInfo.InvariantCulture), null);
        Row("rate / min", Ours.RatePerMinute.ToString("N0", CultureInfo.InvariantCulture), Original.RatePerMinute.ToString("N0", CultureInfo.InvariantCulture), RateRatio);
        Micros("CPU us / notification: consumer", c => c.ConsumerMicros, ConsumerCpuRatio);
        Micros("CPU us / notification: producer", c => c.ProducerMicros, Ratio(c => c.ProducerMicros));
        Micros("CPU us / notification: broker", c => c.BrokerMicros, Ratio(c => c.BrokerMicros));
        Micros("CPU us / notification: database", c => c.DatabaseMicros, Ratio(c => c.DatabaseMicros));
        Micros("CPU us / notification: sink", c => c.SinkMicros, Ratio(c => c.SinkMicros));
        Micros("CPU us / notification: total", c => c.TotalMicros, TotalCpuRatio);
        Row("p50 / p99 ms", $"{Ours.LatencyP50Ms:F0} / {Ours.LatencyP99Ms:F0}", $"{Original.LatencyP50Ms:F0} / {Original.LatencyP99Ms:F0}", null);
        Row("load average at the end", $"{Ours.LoadAverage:F1}", $"{Original.LoadAverage:F1}", null);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"\n  ours / original, median rates: {RateRatio:F2}"));
    }

    private double? Ratio(Func<CpuSplit, double> micros) =>
        Ours.Cpu is { } ours && Original.Cpu is { } original && micros(original) > 0 ? micros(ours) / micros(original) : null;

    private void Micros(string what, Func<CpuSplit, double> micros, double? ratio) =>
        Row(what, Ours.Cpu is { } o ? micros(o).ToString("F0", CultureInfo.InvariantCulture) : "-",
            Original.Cpu is { } b ? micros(b).ToString("F0", CultureInfo.InvariantCulture) : "-", ratio);

    private static void Row(string what, string ours, string original, double? ratio) =>
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {what} | {ours} | {original} | {(ratio is { } r ? r.ToString("F2", CultureInfo.InvariantCulture) : "")} |"));
}
