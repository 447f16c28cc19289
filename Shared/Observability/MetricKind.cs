namespace Notifications.Shared.Observability;

/// <summary>How a family is exposed in the Prometheus text format.</summary>
internal enum MetricKind
{
    Counter,
    Gauge,
    Histogram,
}
