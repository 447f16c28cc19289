namespace Notifications.Consumer.Telemetry;

/// <summary>
/// When a delivered notification's last two hops began (<see cref="System.Diagnostics.Stopwatch"/> timestamps) and its lane's tag:
/// what <see cref="ConsumerMetrics.Delivered"/> needs for the log-write and ack-delay hops. Default: not timed.
/// </summary>
internal readonly record struct DeliveryTimings(KeyValuePair<string, object?> Lane, long LogStarted, long AckStarted);
