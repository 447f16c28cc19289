using System.Diagnostics.Metrics;

namespace Notifications.UnitTests.Consumer;

/// <summary>Reads the instruments of one meter scope straight from System.Diagnostics.Metrics, whatever exports them.</summary>
internal sealed class InstrumentReader : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly Dictionary<string, long> _totals = [];
    private readonly Dictionary<string, int> _gauges = [];

    public InstrumentReader(IMeterFactory scope)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Scope == scope)
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            lock (_totals)
            {
                _totals[instrument.Name] = _totals.GetValueOrDefault(instrument.Name) + value;
            }
        });
        _listener.SetMeasurementEventCallback<int>((instrument, value, _, _) =>
        {
            lock (_gauges)
            {
                _gauges[instrument.Name] = value;
            }
        });
        _listener.Start();
    }

    /// <summary>The sum of what a counter was given so far.</summary>
    public long Total(string instrument)
    {
        lock (_totals)
        {
            return _totals.GetValueOrDefault(instrument);
        }
    }

    /// <summary>An observable gauge's value now.</summary>
    public int Gauge(string instrument)
    {
        _listener.RecordObservableInstruments();
        lock (_gauges)
        {
            return _gauges[instrument];
        }
    }

    public void Dispose() => _listener.Dispose();
}
