namespace Notifications.Producer;

/// <summary>Running totals of this producer process, read by logs and the harness.</summary>
internal sealed class ProducerStats(ProducerMetrics? metrics = null)
{
    private long _published;
    private long _batches;
    private long _failures;

    public long Published => Interlocked.Read(ref _published);

    public long Batches => Interlocked.Read(ref _batches);

    public long Failures => Interlocked.Read(ref _failures);

    public void AddBatch(int published)
    {
        if (published > 0)
        {
            Interlocked.Add(ref _published, published);
            Interlocked.Increment(ref _batches);
            metrics?.Committed(published);
        }
    }

    public string ToJson() => System.FormattableString.Invariant(
        $"{{\"published\": {Published}, \"batches\": {Batches}, \"failures\": {Failures}}}");

    public void AddFailure()
    {
        Interlocked.Increment(ref _failures);
        metrics?.BatchFailed();
    }
}
