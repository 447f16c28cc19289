namespace Notifications.Harness.Live;

/// <summary>The median of each published figure over the runs, each figure on its own (the runs' noise differs by figure).</summary>
internal sealed record LiveMedians(
    double ConnectSeconds, double KbPerConnection, double P50Ms, double P99Ms, double MaxMs, double AckGoneP99Ms,
    double? Broadcast100Seconds, double SteadyTotalMicros, double GatewayMicros, double ConsumerMicros, double ProducerMicros, LiveStormMedians? Storm)
{
    public static LiveMedians Of(IReadOnlyList<LiveResult> runs) => new(
        Median(runs, r => r.Connect.Seconds), Median(runs, r => r.GatewayKbPerConnection), Median(runs, r => r.P50Ms),
        Median(runs, r => r.P99Ms), Median(runs, r => r.MaxMs), Median(runs, r => r.AckGoneP99Ms),
        // A broadcast that never reached 100 % is the slowest.
        runs.Select(r => r.Broadcast100Seconds ?? double.MaxValue).Order().ElementAt(runs.Count / 2) is var b && b < double.MaxValue ? b : null,
        Median(runs, r => r.SteadyCpu.TotalMicros), Median(runs, r => r.SteadyCpu.GatewayMicros),
        Median(runs, r => r.SteadyCpu.ConsumerMicros), Median(runs, r => r.SteadyCpu.ProducerMicros), LiveStormMedians.Of(runs));

    internal static double Median(IReadOnlyList<LiveResult> runs, Func<LiveResult, double> figure) =>
        runs.Select(figure).Order().ElementAt(runs.Count / 2);
}
