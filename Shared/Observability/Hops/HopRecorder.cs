using System.Diagnostics.Metrics;

namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// Aggregates this worker's own hop histograms (the instruments of <see cref="HopDefinition"/>, of the meter
/// <c>meterName</c> created by <c>scope</c>, i.e. this host's <see cref="IMeterFactory"/>) in process, through a
/// <see cref="MeterListener"/> beside the exporter's: per hop and lane, and per window for the windowed hop, with the
/// exact maximum. Read for the benchmark report and the progress log; recording stays allocation-free. Measurements in
/// the first <c>warmup</c> after the first one are left out (a cold start's JIT and connection set-up).
/// </summary>
public sealed class HopRecorder : IDisposable
{
    /// <summary>The windows of the windowed hop: 5 s, aligned on the Unix epoch; at most <see cref="MaxWindows"/> of them.</summary>
    public static readonly TimeSpan WindowLength = TimeSpan.FromSeconds(5);

    private const int MaxWindows = 4096;
    private readonly MeterListener _listener = new();
    private readonly Dictionary<string, Hop> _hops;
    private readonly long _warmupMs;
    private readonly TimeProvider _time;
    private long _firstMs = long.MinValue;
    private volatile bool _warm;

    /// <summary>Starts listening to <paramref name="hops"/> of the meter <paramref name="meterName"/> that <paramref name="scope"/> created.</summary>
    public HopRecorder(object? scope, string meterName, IEnumerable<HopDefinition> hops, TimeSpan warmup, TimeProvider time)
    {
        _hops = hops.ToDictionary(h => h.Instrument, h => new Hop(h), StringComparer.Ordinal);
        _warmupMs = (long)warmup.TotalMilliseconds;
        _warm = _warmupMs <= 0;
        _time = time;
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument is Histogram<double> && instrument.Meter.Name == meterName && instrument.Meter.Scope == scope
                && _hops.TryGetValue(instrument.Name, out var hop))
            {
                listener.EnableMeasurementEvents(instrument, hop);
            }
        };
        _listener.SetMeasurementEventCallback<double>(OnMeasurement);
        _listener.Start();
    }

    /// <summary>The hop's histogram (seconds), all lanes together or one lane (<c>urgent</c>, <c>standard</c>).</summary>
    public HistogramSnapshot Snapshot(string hop, string? lane = null)
    {
        var found = _hops.Values.Single(h => h.Definition.Hop == hop);
        return lane is null ? found.All() : found.Lanes[Array.IndexOf(HopTags.Lanes, lane)].Snapshot();
    }

    /// <summary>Every hop that has recordings: all lanes together, then each lane tag seen.</summary>
    public IReadOnlyList<HopEntry> Hops() =>
    [
        .. _hops.Values.SelectMany(hop => hop.Lanes
            .Select((histogram, i) => (Lane: HopTags.Lanes[i], Snapshot: histogram.Snapshot()))
            .Where(l => l.Lane.Length > 0)
            .Prepend((Lane: "all", Snapshot: hop.All()))
            .Where(l => l.Snapshot.Count > 0)
            .Select(l => HopEntry.From(hop.Definition.Hop, l.Lane, l.Snapshot))),
    ];

    /// <summary>The windowed hop's windows that have recordings, in order.</summary>
    public IReadOnlyList<WindowEntry> Windows()
    {
        if (_hops.Values.FirstOrDefault(h => h.Definition.Windowed) is not { } hop
            || Interlocked.Read(ref hop.FirstWindow) is var first && first == long.MinValue)
        {
            return [];
        }

        return
        [
            .. hop.Windows.Select((window, i) => (Window: window, Index: i))
                .Where(w => w.Window is not null && w.Window.Snapshot().Count > 0)
                .Select(w => WindowEntry.From(DateTimeOffset.FromUnixTimeMilliseconds((first + w.Index) * (long)WindowLength.TotalMilliseconds), w.Window!.Snapshot())),
        ];
    }

    /// <summary>Stops listening.</summary>
    public void Dispose() => _listener.Dispose();

    private void OnMeasurement(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags, object? state)
    {
        var hop = (Hop)state!;
        long nowMs = _warm && !hop.Definition.Windowed ? 0 : _time.GetUtcNow().ToUnixTimeMilliseconds();
        if (!_warm && !IsWarm(nowMs))
        {
            return;
        }

        hop.Lanes[HopTags.LaneIndex(tags)].Record(value);
        if (hop.Definition.Windowed)
        {
            hop.RecordWindow(nowMs / (long)WindowLength.TotalMilliseconds, value);
        }
    }

    private bool IsWarm(long nowMs)
    {
        long first = Interlocked.CompareExchange(ref _firstMs, nowMs, long.MinValue);
        if (first != long.MinValue && nowMs - first >= _warmupMs)
        {
            _warm = true;
        }

        return _warm;
    }

    private sealed class Hop(HopDefinition definition)
    {
        public long FirstWindow = long.MinValue;

        public HopDefinition Definition { get; } = definition;

        public BucketHistogram[] Lanes { get; } = [.. HopTags.Lanes.Select(_ => new BucketHistogram(definition.Bounds))];

        public BucketHistogram?[] Windows { get; } = definition.Windowed ? new BucketHistogram?[MaxWindows] : [];

        public HistogramSnapshot All() => Lanes.Select(l => l.Snapshot()).Aggregate((a, b) => a.Merge(b));

        public void RecordWindow(long window, double value)
        {
            long first = Interlocked.CompareExchange(ref FirstWindow, window, long.MinValue);
            long index = window - (first == long.MinValue ? window : first);
            if (index is < 0 or >= MaxWindows)
            {
                return;
            }

            var histogram = Volatile.Read(ref Windows[index]);
            if (histogram is null)
            {
                Interlocked.CompareExchange(ref Windows[index], new BucketHistogram(Definition.Bounds), null);
                histogram = Volatile.Read(ref Windows[index])!;
            }

            histogram.Record(value);
        }
    }
}
