using System.Diagnostics;
using System.Diagnostics.Metrics;
using Notifications.Shared.Data;
using Notifications.Shared.Observability.Hops;

namespace Notifications.Producer;

/// <summary>
/// The producer's instruments (meter <c>Notifications.Producer</c>), exported on <c>/metrics</c>.
/// Counters and hop histograms are per batch, never per row: the hot path pays one Add or Record per batch.
/// </summary>
internal sealed class ProducerMetrics : IDisposable
{
    public const string MeterName = "Notifications.Producer";

    /// <summary>The producer's hops, as <see cref="HopRecorder"/> reports them.</summary>
    public static readonly HopDefinition[] Hops =
    [
        new("notifications.producer.claim.wait", "claim_wait", LatencyBuckets.EndToEnd),
        new("notifications.producer.claim.duration", "claim", LatencyBuckets.Hop),
        new("notifications.producer.publish.duration", "publish_confirm", LatencyBuckets.Hop),
    ];

    private readonly Histogram<double> _claimWait;
    private readonly Histogram<double> _claimDuration;
    private readonly Histogram<double> _publishDuration;
    private readonly Counter<long> _claimed;
    private readonly Counter<long> _published;
    private readonly Counter<long> _confirmed;
    private readonly Counter<long> _committed;
    private readonly Counter<long> _rejected;
    private readonly Counter<long> _batchFailures;
    private long _backlog = -1;

    public ProducerMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _claimed = meter.CreateCounter<long>("notifications.outbox.claimed", "{row}", "Outbox rows claimed (deleted in an open transaction)");
        _published = meter.CreateCounter<long>("notifications.published", "{notification}", "Notifications published to the broker (several per message in an envelope)");
        _confirmed = meter.CreateCounter<long>("notifications.confirmed", "{notification}", "Published notifications the broker confirmed");
        _committed = meter.CreateCounter<long>("notifications.outbox.committed", "{row}", "Claimed rows whose batch committed: handed over to the broker for good");
        _rejected = meter.CreateCounter<long>("notifications.rejected", "{row}", "Rows moved to the rejected table (too large for the broker)");
        _batchFailures = meter.CreateCounter<long>("notifications.producer.batch_failures", "{batch}", "Batches rolled back (nack, return, timeout, lost connection, database error)");
        // Every series exported from the start, at zero: one that first appears at 1 hides that increase from rate().
        Array.ForEach([_claimed, _published, _confirmed, _committed, _rejected, _batchFailures], counter => counter.Add(0));
        _claimWait = meter.CreateHistogram(Hops[0].Instrument, "s", "Per claimed batch, its oldest row's wait: outbox insert (created_at) to claimed",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = Hops[0].Bounds });
        _claimDuration = meter.CreateHistogram(Hops[1].Instrument, "s", "One claim statement (empty claims included)",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = Hops[1].Bounds });
        _publishDuration = meter.CreateHistogram(Hops[2].Instrument, "s", "Per batch: serialize and publish every row, until the broker confirmed them all",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = Hops[2].Bounds });
        meter.CreateObservableGauge("notifications.outbox.backlog", ObserveBacklog, "{row}", "Rows waiting in the outbox (sampled every Metrics:BacklogInterval)");
        Recorder = new HopRecorder(meters, MeterName, Hops, TimeSpan.Zero, TimeProvider.System);
    }

    /// <summary>This process's hop histograms, aggregated for the report.</summary>
    public HopRecorder Recorder { get; }

    /// <summary>The last backlog sample, or -1 before the first.</summary>
    public long Backlog => Interlocked.Read(ref _backlog);

    public void Claimed(int rows) => _claimed.Add(rows);

    public void Published(int notifications) => _published.Add(notifications);

    /// <summary>A claim statement ended (<paramref name="started"/> is when it began): its duration and the oldest row's wait.</summary>
    public void ClaimEnded(ProducerLane lane, DateTimeOffset started, IReadOnlyList<OutboxRow> rows)
    {
        var now = DateTimeOffset.UtcNow;
        _claimDuration.Record((now - started).TotalSeconds, lane.Tag);
        if (rows.Count == 0)
        {
            return;
        }

        var oldest = rows[0].CreatedAt;
        for (int i = 1; i < rows.Count; i++)
        {
            oldest = rows[i].CreatedAt < oldest ? rows[i].CreatedAt : oldest;
        }

        _claimWait.Record(Math.Max(0, (now - oldest).TotalSeconds), lane.Tag);
    }

    /// <summary>Every publish of a batch confirmed; <paramref name="publishStarted"/> is the <see cref="Stopwatch"/> timestamp before the first.</summary>
    public void Confirmed(int notifications, ProducerLane lane, long publishStarted)
    {
        _publishDuration.Record(Stopwatch.GetElapsedTime(publishStarted).TotalSeconds, lane.Tag);
        _confirmed.Add(notifications);
    }

    public void Committed(int rows) => _committed.Add(rows);

    public void Rejected(int rows) => _rejected.Add(rows);

    public void BatchFailed() => _batchFailures.Add(1);

    public void SetBacklog(long rows) => Interlocked.Exchange(ref _backlog, rows);

    public void Dispose() => Recorder.Dispose();

    private IEnumerable<Measurement<long>> ObserveBacklog() =>
        Backlog is var rows and >= 0 ? [new Measurement<long>(rows)] : [];
}
