namespace Notifications.Shared.Observability;

/// <summary>
/// One time series of one instrument (one set of tag values): a running sum, a last value, or a
/// histogram's bucket counts. Updated lock-free from any thread; read by the scrape.
/// </summary>
internal sealed class MetricSeries
{
    private readonly double[]? _bounds;
    private readonly long[]? _buckets;
    private double _value;
    private double _sum;

    public MetricSeries(string labels, double[]? bounds)
    {
        Labels = labels;
        _bounds = bounds;
        _buckets = bounds is null ? null : new long[bounds.Length + 1];
    }

    /// <summary>The rendered label set, e.g. <c>kind="transient"</c>, or empty.</summary>
    public string Labels { get; }

    /// <summary>A counter's or up-down counter's sum, or an observable's last value.</summary>
    public double Value => Volatile.Read(ref _value);

    /// <summary>A histogram's sum of recorded values.</summary>
    public double Sum => Volatile.Read(ref _sum);

    public void Add(double delta) => AddTo(ref _value, delta);

    public void Set(double value) => Volatile.Write(ref _value, value);

    public void Observe(double value)
    {
        // le semantics: a value equal to a bound counts in that bound's bucket; past the last, the +Inf bucket.
        int index = Array.BinarySearch(_bounds!, value);
        Interlocked.Increment(ref _buckets![index >= 0 ? index : ~index]);
        AddTo(ref _sum, value);
    }

    /// <summary>Cumulative bucket counts per bound, the last one for +Inf (= the count).</summary>
    public long[] CumulativeBuckets()
    {
        var cumulative = new long[_buckets!.Length];
        long running = 0;
        for (int i = 0; i < cumulative.Length; i++)
        {
            running += Interlocked.Read(ref _buckets[i]);
            cumulative[i] = running;
        }

        return cumulative;
    }

    private static void AddTo(ref double target, double delta)
    {
        double seen = Volatile.Read(ref target);
        while (true)
        {
            double replaced = Interlocked.CompareExchange(ref target, seen + delta, seen);
            if (replaced.Equals(seen))
            {
                return;
            }

            seen = replaced;
        }
    }
}
