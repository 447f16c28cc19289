using System.Diagnostics.Metrics;

namespace Notifications.Producer;

/// <summary>
/// The producer's instruments (meter <c>Notifications.Producer</c>), exported on <c>/metrics</c>.
/// Counters are per batch, never per row: the hot path pays one Add per batch.
/// </summary>
internal sealed class ProducerMetrics
{
    public const string MeterName = "Notifications.Producer";
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
        meter.CreateObservableGauge("notifications.outbox.backlog", ObserveBacklog, "{row}", "Rows waiting in the outbox (sampled every Metrics:BacklogInterval)");
    }

    /// <summary>The last backlog sample, or -1 before the first.</summary>
    public long Backlog => Interlocked.Read(ref _backlog);

    public void Claimed(int rows) => _claimed.Add(rows);

    public void Published(int notifications) => _published.Add(notifications);

    public void Confirmed(int notifications) => _confirmed.Add(notifications);

    public void Committed(int rows) => _committed.Add(rows);

    public void Rejected(int rows) => _rejected.Add(rows);

    public void BatchFailed() => _batchFailures.Add(1);

    public void SetBacklog(long rows) => Interlocked.Exchange(ref _backlog, rows);

    private IEnumerable<Measurement<long>> ObserveBacklog() =>
        Backlog is var rows and >= 0 ? [new Measurement<long>(rows)] : [];
}
