namespace Notifications.Harness;

/// <summary>One hop of a run, all workers' histograms merged: milliseconds, interpolated in the bucket (max exact).</summary>
/// <param name="Worker"><c>producer</c> or <c>consumer</c>.</param>
/// <param name="Hop">The hop's name in the workers' reports (docs/latency-hops.md).</param>
/// <param name="Lane"><c>all</c>, <c>urgent</c> or <c>standard</c>.</param>
/// <param name="Count">Recordings.</param>
/// <param name="P50Ms">Median.</param>
/// <param name="P95Ms">95th percentile.</param>
/// <param name="P99Ms">99th percentile.</param>
/// <param name="MaxMs">Maximum.</param>
internal sealed record HopRow(string Worker, string Hop, string Lane, long Count, double P50Ms, double P95Ms, double P99Ms, double MaxMs);
