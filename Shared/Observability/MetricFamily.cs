using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;

namespace Notifications.Shared.Observability;

/// <summary>
/// Everything the exporter keeps of one instrument: its Prometheus name, type and help, and its series
/// by tag set. Measurements without tags (the hot path's) skip the tag rendering and the lookup.
/// </summary>
internal sealed class MetricFamily
{
    /// <summary>Used when a histogram has no bucket advice: OpenTelemetry's defaults.</summary>
    private static readonly double[] DefaultBounds = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];
    private readonly ConcurrentDictionary<string, MetricSeries> _series = new(StringComparer.Ordinal);
    private readonly MetricSeries _untagged;

    public MetricFamily(Instrument instrument)
    {
        Kind = KindOf(instrument);
        Observable = instrument.IsObservable;
        Bounds = Kind == MetricKind.Histogram ? BoundsOf(instrument) : null;
        Name = PrometheusNaming.MetricName(instrument.Name, instrument.Unit, Kind);
        Help = string.IsNullOrWhiteSpace(instrument.Description) ? instrument.Name : instrument.Description;
        _untagged = new MetricSeries("", Bounds);
    }

    public string Name { get; }

    public string Help { get; }

    public MetricKind Kind { get; }

    public double[]? Bounds { get; }

    /// <summary>Observable instruments report a whole value on each collection; they are reset before it.</summary>
    public bool Observable { get; }

    private volatile bool _hasUntagged;

    public void Record(double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var series = Series(tags);
        if (Kind == MetricKind.Histogram)
        {
            series.Observe(value);
        }
        else if (Observable)
        {
            // An observable counter reports its running total, a gauge its current value: both replace.
            series.Set(value);
        }
        else
        {
            series.Add(value);
        }
    }

    /// <summary>Before collecting observables: tag sets not reported again disappear.</summary>
    public void ResetObservations()
    {
        _series.Clear();
        _hasUntagged = false;
    }

    public IEnumerable<MetricSeries> Snapshot()
    {
        var all = _series.Values.OrderBy(s => s.Labels, StringComparer.Ordinal);
        return _hasUntagged || (!Observable && _series.IsEmpty) ? all.Prepend(_untagged) : all;
    }

    private MetricSeries Series(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        if (tags.Length == 0)
        {
            _hasUntagged = true;
            return _untagged;
        }

        string labels = RenderLabels(tags);
        return _series.GetOrAdd(labels, static (key, bounds) => new MetricSeries(key, bounds), Bounds);
    }

    private static string RenderLabels(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var sorted = tags.ToArray();
        Array.Sort(sorted, (a, b) => string.CompareOrdinal(a.Key, b.Key));
        var text = new StringBuilder();
        foreach (var (key, value) in sorted)
        {
            if (text.Length > 0)
            {
                text.Append(',');
            }

            text.Append(PrometheusNaming.LabelName(key)).Append("=\"")
                .Append(PrometheusNaming.EscapeLabelValue(Convert.ToString(value, CultureInfo.InvariantCulture) ?? ""))
                .Append('"');
        }

        return text.ToString();
    }

    private static MetricKind KindOf(Instrument instrument) => instrument switch
    {
        Histogram<long> or Histogram<double> or Histogram<int> or Histogram<float> => MetricKind.Histogram,
        Counter<long> or Counter<double> or Counter<int> or Counter<float>
            or ObservableCounter<long> or ObservableCounter<double> or ObservableCounter<int> => MetricKind.Counter,
        _ => MetricKind.Gauge,
    };

    private static double[] BoundsOf(Instrument instrument)
    {
        var advised = instrument switch
        {
            Histogram<double> h => h.Advice?.HistogramBucketBoundaries?.ToArray(),
            Histogram<long> h => h.Advice?.HistogramBucketBoundaries?.Select(b => (double)b).ToArray(),
            Histogram<int> h => h.Advice?.HistogramBucketBoundaries?.Select(b => (double)b).ToArray(),
            _ => null,
        };
        return advised is { Length: > 0 } bounds ? [.. bounds.Distinct().Order()] : DefaultBounds;
    }
}
