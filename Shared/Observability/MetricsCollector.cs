using System.Collections.Concurrent;
using System.Diagnostics.Metrics;

namespace Notifications.Shared.Observability;

/// <summary>
/// Listens (<see cref="MeterListener"/>) to the instruments of the meters this host's
/// <see cref="IMeterFactory"/> created, aggregates their measurements, and renders them for a
/// Prometheus scrape. Measurements arrive on any thread, lock-free; scrapes are serialized.
/// </summary>
/// <remarks>
/// Instead of the OpenTelemetry Prometheus exporter, which the registry copy this project builds from
/// does not hold. Filtering by factory keeps two hosts in one process (the integration tests) apart.
/// </remarks>
public sealed class MetricsCollector : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly ConcurrentDictionary<Instrument, MetricFamily> _families = new();
    private readonly Lock _scrape = new();

    /// <summary>Collects the instruments of meters created by <paramref name="scope"/> (null: every meter whose name starts with "Notifications").</summary>
    public MetricsCollector(IMeterFactory? scope)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            bool ours = scope is null
                ? instrument.Meter.Name.StartsWith("Notifications", StringComparison.Ordinal)
                : ReferenceEquals(instrument.Meter.Scope, scope);
            if (ours)
            {
                var family = _families.GetOrAdd(instrument, static i => new MetricFamily(i));
                listener.EnableMeasurementEvents(instrument, family);
            }
        };
        _listener.MeasurementsCompleted = (instrument, _) => _families.TryRemove(instrument, out MetricFamily? _);
        _listener.SetMeasurementEventCallback<long>((_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<int>((_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<double>((_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<float>((_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.Start();
    }

    /// <summary>Collects the observable instruments and renders everything in the text format 0.0.4.</summary>
    public string Scrape()
    {
        lock (_scrape)
        {
            foreach (var family in _families.Values.Where(f => f.Observable))
            {
                family.ResetObservations();
            }

            _listener.RecordObservableInstruments();
            return PrometheusTextWriter.Write(_families.Values);
        }
    }

    /// <inheritdoc />
    public void Dispose() => _listener.Dispose();
}
