namespace Notifications.Harness;

/// <summary>The end-to-end latency of the deliveries of one 5-second window of a run, all consumers merged (milliseconds).</summary>
/// <param name="Start">The window's start (aligned on the Unix epoch).</param>
/// <param name="OffsetSeconds">Seconds from the run's first window.</param>
/// <param name="Count">Deliveries in it.</param>
/// <param name="P50Ms">Median.</param>
/// <param name="P99Ms">99th percentile.</param>
/// <param name="MaxMs">Maximum.</param>
internal sealed record WindowRow(DateTimeOffset Start, double OffsetSeconds, long Count, double P50Ms, double P99Ms, double MaxMs);
